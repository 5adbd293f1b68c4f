import SagaCore

/// The values of an effect's operands (``SagaLanguage/Effect/operands``), which the code
/// computed before the effect's statement ran, in order.
///
/// One or two are kept inline: most effects have no more, and an array would be an
/// allocation at each.
struct EffectOperands {
    private enum Storage {
        case none
        case one(Value)
        case two(Value, Value)
        case many([Value])
    }

    private var storage: Storage

    /// None: for an effect with no operands.
    init() {
        storage = .none
    }

    /// The operands `values` gives, in order, `count` of them.
    init(count: Int, _ values: (Int) -> Value) {
        switch count {
        case 0: storage = .none
        case 1: storage = .one(values(0))
        case 2:
            let first = values(0)
            storage = .two(first, values(1))
        default: storage = .many((0..<count).map(values))
        }
    }

    /// How many there are.
    var count: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .two: 2
        case .many(let values): values.count
        }
    }

    /// Operand `index`, which must be one of them (null otherwise).
    subscript(index: Int) -> Value {
        switch storage {
        case .one(let value) where index == 0: value
        case .two(let first, _) where index == 0: first
        case .two(_, let second) where index == 1: second
        case .many(let values) where values.indices.contains(index): values[index]
        default: .null
        }
    }

    /// Operand `index` taken out, so that a list or record the effect goes on to change is not
    /// shared: null is left in its place.
    ///
    /// The storage is moved out and back, so that no value is copied on the way.
    mutating func take(_ index: Int) -> Value {
        var taken = Storage.none
        swap(&taken, &storage)
        switch consume taken {
        case .none:
            return .null
        case .one(let value):
            guard index == 0 else {
                storage = .one(value)
                return .null
            }
            return value
        case .two(let first, let second):
            switch index {
            case 0:
                storage = .two(.null, second)
                return first
            case 1:
                storage = .two(first, .null)
                return second
            default:
                storage = .two(first, second)
                return .null
            }
        case .many(var values):
            guard values.indices.contains(index) else {
                storage = .many(values)
                return .null
            }
            var value = Value.null
            swap(&value, &values[index])
            storage = .many(values)
            return value
        }
    }

    /// All of them, in order.
    var all: [Value] {
        switch storage {
        case .none: []
        case .one(let value): [value]
        case .two(let first, let second): [first, second]
        case .many(let values): values
        }
    }
}
