extension Code {
    /// The most steps a `fork` block takes when its code can run in its parent's turn (see
    /// ``Interpreter/runInline(_:frame:parent:at:)``), counting the step that finds its end;
    /// `nil` for code that cannot.
    ///
    /// Such code only computes, selects, logs and puts, going forward, and may stand in a
    /// `try` … `catch`: every instruction it runs completes where it stands, or (a `put` whose
    /// action must wait, an instruction that fails) gives the body its task there, which then
    /// stands in the same `try`s. A loop, a `finally` block, a `transaction`, a call or any
    /// other effect needs a task from the start.
    var inlineSteps: Int? {
        var steps = 1
        for (i, instruction) in instructions.enumerated() {
            switch instruction {
            case .move, .stateMember, .state, .cancelled, .member, .index, .binary, .unary, .logical, .logicalRight,
                .unlessNull, .newList, .append, .checkDepth, .record, .builtin, .appendText, .appendDisplay,
                .checkLength,
                .setSlotPath, .updateSlotPath, .addToSlot, .putBuilt, .selectEnd, .log, .fail, .tryEnd:
                continue
            case .tryBegin(let index):
                let handler = handlers[Int(index)]
                guard handler.finally < 0, !handler.compensates else { return nil }
            case .step, .put, .select, .selectState:
                steps += 1
            case .stepAndJump(let target):
                guard target > i else { return nil }
                steps += 1
            case .jump(let target), .jumpUnless(_, let target), .jumpUnlessCompare(_, _, _, let target),
                .jumpUnlessNull(_, _, let target):
                guard target > i else { return nil }
            case .statement, .effect, .take, .cancelTask, .joinTask, .forkBlock, .call, .callReturn, .forStart,
                .forNext, .forEnd,
                .clearTemporaries,
                .stepAndLoopIfCompare, .finallyEnd, .finallyLeave, .returnValue, .throwValue,
                .setStateMember, .stateMemberUnlessRecord, .updateStateMember, .setStatePath, .updateStatePath:
                return nil
            }
        }
        return steps
    }
}
