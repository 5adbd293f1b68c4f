extension ReducerCode {
    /// Whether code of these parts reads no variable but the reducer's action (slot 0), writes
    /// none, and leaves nothing to the evaluator or the walker (which read the variables array).
    ///
    /// Such code runs with the action alone: the runner fills and clears no variables array
    /// for it, about a tenth of a one-line reducer's run (callgrind, every-select-put).
    static func readsOnlyTheAction(
        _ instructions: [Instruction], records: [[(key: Int32, value: Place)]], paths: [[PathStep]],
        leavesNothingToTheWalker: Bool
    ) -> Bool {
        guard leavesNothingToTheWalker else { return false }
        func reads(_ place: Place) -> Bool {
            if case .slot(let s) = place { return s == 0 }
            return true
        }
        func writes(_ place: Place) -> Bool {
            if case .slot = place { return false }
            return true
        }
        func readsPath(_ index: Int32) -> Bool {
            paths[Int(index)].allSatisfy { step in
                if case .index(let place) = step { return reads(place) }
                return true
            }
        }
        return instructions.allSatisfy { instruction in
            switch instruction {
            case .move(let from, let into), .member(let from, _, let into), .unary(_, let from, let into),
                .logical(_, let from, let into, _), .logicalRight(_, let from, let into),
                .unlessNull(let from, let into, _), .append(let from, let into):
                return reads(from) && writes(into)
            case .index(let a, let b, let into), .binary(_, let a, let b, let into):
                return reads(a) && reads(b) && writes(into)
            case .stateMember(_, let into), .newList(_, let into), .stateMemberUnlessRecord(_, let into):
                return writes(into)
            case .updateStateMember(_, _, let lhs, let rhs):
                return reads(lhs) && reads(rhs)
            case .record(let index, let into):
                return records[Int(index)].allSatisfy { reads($0.value) } && writes(into)
            case .checkDepth(let place), .setStateMember(_, let place), .forStart(let place, _),
                .jumpUnless(let place, _):
                return reads(place)
            case .setStatePath(let path, let place):
                return readsPath(path) && reads(place)
            case .updateStatePath(let path, _, let lhs, let rhs):
                return readsPath(path) && reads(lhs) && reads(rhs)
            case .step, .forEnd, .clearTemporaries, .jump:
                return true
            case .setSlotPath, .forNext, .evaluate, .statement:
                return false
            }
        }
    }
}
