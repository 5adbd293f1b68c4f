import SagaCore

extension Code {
    /// Whether code of these parts reads no variable but the members of the reducer's action
    /// (slot 0), and writes none.
    ///
    /// Such code runs with the action alone, read where it is: the runner fills and clears no
    /// variables array for it, a noticeable part of a one-line reducer's run.
    static func readsOnlyTheAction(
        _ instructions: [Instruction], records: [[(key: Int32, value: Place)]], paths: [[PathStep]],
        calls: [(builtin: Builtin, arguments: [Place])]
    ) -> Bool {
        func reads(_ place: Place) -> Bool {
            if case .slot = place { return false }
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
            case .member(.slot(0), _, let into):
                return writes(into)
            case .move(let from, let into), .member(let from, _, let into), .unary(_, let from, let into),
                .logical(_, let from, let into, _), .logicalRight(_, let from, let into),
                .unlessNull(let from, let into, _), .append(let from, let into), .appendDisplay(let from, let into):
                return reads(from) && writes(into)
            case .jumpUnlessNull(let place, _, _):
                return reads(place)
            case .index(let a, let b, let into), .binary(_, let a, let b, let into):
                return reads(a) && reads(b) && writes(into)
            case .jumpUnlessCompare(_, let a, let b, _), .stepAndLoopIfCompare(_, let a, let b, _):
                return reads(a) && reads(b)
            case .stateMember(_, let into), .state(let into), .newList(_, let into),
                .stateMemberUnlessRecord(_, let into), .appendText(_, let into), .cancelled(let into):
                return writes(into)
            case .updateStateMember(_, _, let lhs, let rhs):
                return reads(lhs) && reads(rhs)
            case .record(let index, let into):
                return records[Int(index)].allSatisfy { reads($0.value) } && writes(into)
            case .builtin(let index, let into):
                return calls[Int(index)].arguments.allSatisfy(reads) && writes(into)
            case .checkDepth(let place), .checkLength(let place), .setStateMember(_, let place),
                .forStart(let place, _), .jumpUnless(let place, _):
                return reads(place)
            case .setStatePath(let path, let place):
                return readsPath(path) && reads(place)
            case .updateStatePath(let path, _, let lhs, let rhs):
                return readsPath(path) && reads(lhs) && reads(rhs)
            case .callReturn(_, let place), .putBuilt(let place, _), .log(let place), .returnValue(let place),
                .throwValue(let place), .selectEnd(let place):
                return reads(place)
            case .step, .stepAndJump, .statement, .effect, .call, .put, .take, .forEnd, .clearTemporaries, .jump,
                .tryEnd, .finallyEnd, .finallyLeave, .fail:
                return true
            case .cancelTask, .joinTask, .forkBlock:
                // They read a variable, or copy the frame.
                return false
            case .setSlotPath, .addToSlot, .updateSlotPath, .forNext, .tryBegin, .select, .selectState:
                // A handler writes the error into its place, a `catch` variable:
                // a reducer with `try` runs with its variables.
                return false
            }
        }
    }
}
