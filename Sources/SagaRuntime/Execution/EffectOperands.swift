import SagaCore

/// The values of an effect's operands (``SagaLanguage/Effect/operands``), which the code
/// computed before the effect's statement ran, in order.
///
/// The first two are kept inline: most effects have one or two, and an array would be an
/// allocation at each.
struct EffectOperands {
    private var first = Value.null
    private var second = Value.null
    private var more: [Value] = []
    /// How many there are.
    private(set) var count = 0
    /// Whether the code computed them.
    ///
    /// The statement of a call the code makes itself (see
    /// ``Code/ValueCall``), which runs where the code cannot make it, computes its arguments
    /// as written.
    let computed: Bool

    /// None: for an effect with no operands, or a statement that computes its own.
    init(computed: Bool) {
        self.computed = computed
    }

    /// Adds the next operand's value.
    mutating func append(_ value: consuming Value) {
        switch count {
        case 0: first = value
        case 1: second = value
        default:
            if more.isEmpty { more.reserveCapacity(4) }
            more.append(value)
        }
        count &+= 1
    }

    /// Operand `index`, which must be one of them.
    subscript(index: Int) -> Value {
        switch index {
        case 0: first
        case 1: second
        default: more[index - 2]
        }
    }

    /// Operand `index`, which must be one of them, taken out: null is left in its place, so
    /// that a list or record the effect goes on to change is not shared.
    mutating func take(_ index: Int) -> Value {
        var value = Value.null
        switch index {
        case 0: swap(&value, &first)
        case 1: swap(&value, &second)
        default: swap(&value, &more[index - 2])
        }
        return value
    }

    /// All of them, in order.
    var all: [Value] {
        switch count {
        case 0: []
        case 1: [first]
        case 2: [first, second]
        default: [first, second] + more
        }
    }
}
