// Slots planned while parsing, for the Frontend: each variable gets the slot the checker is
// going to give it, so that the checker, finding it right, leaves the expression as it is.
// Callees too: a call of a function declared earlier in the file names it by its index among
// the file's functions, which is its index in the program when the file's functions come first
// (a program of one file), and the checker leaves such a call as it is instead of rebuilding
// it and every statement and effect around it, which saves several allocations per function
// and saga.

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
    @inline(__always)
    mutating func planScopeOpen() {
        guard plansSlots else { return }
        plannedScopes.push()
    }

    /// Closes the scope ``planScopeOpen()`` opened.
    @inline(__always)
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
    ///
    /// Inlined, as reads are most of the names parsed.
    @inline(__always)
    mutating func planUse(of variable: inout Variable) {
        guard plansSlots, let index = plannedScopes.lookup(variable.nameID) else { return }
        variable.slot = plannedScopes.entry(at: index).slot
    }
}

extension Parser {
    /// Counts a function declaration of this file, parsed whole, and remembers the first of
    /// its name (when the name is one identifier, `first`) for planning the calls after it.
    mutating func planFunction(named first: CompactToken, isDotted: Bool) {
        guard plansSlots else { return }
        defer { functionsParsed += 1 }
        guard !isDotted else { return }
        let id = Int(nameID(first))
        if id >= plannedFunctions.count {
            plannedFunctions.append(contentsOf: repeatElement(-1, count: id + 1 - plannedFunctions.count))
        }
        if plannedFunctions[id] < 0 { plannedFunctions[id] = functionsParsed }
    }

    /// The planned callee of a call naming the single identifier `name`: the index among this
    /// file's functions of the first function of that name declared before it, if any.
    mutating func plannedCallee(_ name: CompactToken) -> Callee? {
        guard plansSlots, !plannedFunctions.isEmpty else { return nil }
        let id = Int(nameID(name))
        guard id < plannedFunctions.count, plannedFunctions[id] >= 0 else { return nil }
        return .function(Int(plannedFunctions[id]), location(name))
    }
}
