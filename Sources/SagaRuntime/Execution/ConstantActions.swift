import SagaCore
import SagaLanguage

/// The actions of `put "t"` and of `put "t" {k: literal, …}`: the same value at every run of
/// the statement, so made once and shared (values are immutable) rather than built, and freed
/// again, at each `put`, where the record's entries would be an allocation and a free per
/// action.
struct ConstantActions {
    /// The most `put "t" {…}` sites, and the most `put "t"` types, remembered beyond the first
    /// few of each: a program has as many sites as it has `put` statements, but a saga written
    /// in Swift that puts types it makes at run time (`put("t\(n)")` in a `race`) reaches the
    /// type-only path with each; the bound keeps either from holding memory without end.
    static let maxSites = 4096

    /// A `put "t" {…}` site: its fields (kept, so that no other array can take their address
    /// while it is remembered), its type, and its action (`nil`: not all literals, or one of
    /// them is `type`, which the put reports as usual).
    private struct Site {
        let address: UnsafeRawPointer
        let fields: [RecordField]
        let type: String
        let action: Value?
    }

    /// `put "t"` actions of the first few types, looked through in order: comparing short keys
    /// by their bits costs less than hashing them for a dictionary look-up.
    private var firstTypes: [Record.Entry] = []
    /// Those of any further types.
    private var moreTypes: [String: Value] = [:]
    /// The first few `put "t" {…}` sites, looked through in order (hashing their address costs
    /// more than comparing it with each), and any further ones.
    private var firstSites: [Site] = []
    private var moreSites: [UnsafeRawPointer: Site] = [:]

    /// How many types `firstTypes` holds, and how many sites `firstSites` holds.
    static let firstCount = 8

    /// The action of `put type`.
    mutating func action(type: String) -> Value {
        for i in firstTypes.indices where Record.sameKey(firstTypes[i].key, type) { return firstTypes[i].value }
        if let action = moreTypes[type] { return action }
        let action = ConstantActions.typeOnly(type)
        if firstTypes.count < ConstantActions.firstCount {
            firstTypes.append(Record.Entry(key: type, value: action))
        } else if moreTypes.count < ConstantActions.maxSites {
            moreTypes[type] = action
        }
        return action
    }

    /// The action of `put type {fields}` when every field is a literal and none is named
    /// `type`; otherwise `nil`, and the put builds (or fails to build) its action as usual.
    mutating func action(type: String, fields: [RecordField]) -> Value? {
        // Keyed by where the literal's fields are, which is the same for every run of the
        // statement; the type is compared as well, for arrays two sites could share (every
        // empty array literal in Swift is one array; the parser's are not, today).
        let address = fields.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        guard let address else { return nil }
        for i in firstSites.indices where firstSites[i].address == address {
            return Record.sameKey(firstSites[i].type, type) ? firstSites[i].action : nil
        }
        if let site = moreSites[address] {
            return Record.sameKey(site.type, type) ? site.action : nil
        }
        let action = ConstantActions.make(type, fields)
        let site = Site(address: address, fields: fields, type: type, action: action)
        if firstSites.count < ConstantActions.firstCount {
            firstSites.append(site)
        } else if moreSites.count < ConstantActions.maxSites {
            moreSites[address] = site
        }
        return action
    }

    /// The action of `put type`, as `put` builds it: the type alone (``Record/init(type:)``).
    static func typeOnly(_ type: String) -> Value {
        .record(Record(type: type))
    }

    /// The action, as `put` would build it, if its payload is all literals.
    static func make(_ type: String, _ fields: [RecordField]) -> Value? {
        var entries: [Record.Entry] = []
        entries.reserveCapacity(fields.count + 1)
        for field in fields {
            guard case .literal(let value, _) = field.value else { return nil }
            entries.append(Record.Entry(key: field.key, value: value))
        }
        var payload = Record(unsortedEntries: entries)
        guard payload.insertIfAbsent("type", .string(type)) else { return nil }
        return .record(payload)
    }
}
