// Slots planned while parsing, for the Frontend: each variable gets the slot the checker is
// going to give it, so that the checker, finding it right, leaves the expression as it is.

extension Parser {
    /// Starts the numbering of a top-level declaration, as the checker's `beginDeclaration`
    /// does: no slots taken, one scope open.
    mutating func planTopLevel() {
        guard plansSlots else { return }
        plannedScopes.reset()
        nextPlannedSlot = 0
    }

    /// Opens a scope where the checker opens one: for a block, and around the binding of
    /// `for`, `catch`, a watcher and `all for`.
    mutating func planScopeOpen() {
        guard plansSlots else { return }
        plannedScopes.push()
    }

    /// Closes the scope ``planScopeOpen()`` opened.
    mutating func planScopeClose() {
        guard plansSlots else { return }
        plannedScopes.pop()
    }

    /// Gives a declared variable the next slot and makes it visible in the innermost scope;
    /// call it where the checker declares it (after a `let`'s right side, for one).
    mutating func planDeclaration(of variable: inout Variable) {
        guard plansSlots else { return }
        variable.slot = nextPlannedSlot
        nextPlannedSlot += 1
        plannedScopes.declare(
            ScopeStack.Entry(
                nameID: variable.nameID, slot: variable.slot, isMutable: false, taskDepth: 0,
                location: variable.location))
    }

    /// A function parameter: as in the checker, a duplicate takes a slot but is not declared.
    mutating func planParameter(_ variable: inout Variable) {
        guard plansSlots else { return }
        guard plannedScopes.declaredInInnermostScope(variable.nameID) == nil else {
            variable.slot = nextPlannedSlot
            nextPlannedSlot += 1
            return
        }
        planDeclaration(of: &variable)
    }

    /// A variable read or assigned: the slot of the innermost visible declaration of its name
    /// (left at -1 when there is none; the checker reports it).
    mutating func planUse(of variable: inout Variable) {
        guard plansSlots, let index = plannedScopes.lookup(variable.nameID) else { return }
        variable.slot = plannedScopes.entries[index].slot
    }
}
