import Testing

@testable import SagaCommandLine

/// The diff `sagarun test` prints, in diff -u's form.
@Suite struct UnifiedDiffTests {
    /// A side with no lines in a hunk names the line before it: `-0,0` for an empty golden.
    @Test func anEmptySideNamesTheLineBeforeIt() {
        let diff = UnifiedDiff.render(expected: "", actual: "one\n", expectedName: "t.golden", actualName: "actual")
        #expect(diff.contains("@@ -0,0 +1,1 @@\n+one\n"), "\(diff)")
        let removed = UnifiedDiff.render(
            expected: "a\nb\n", actual: "", expectedName: "t.golden", actualName: "actual")
        #expect(removed.contains("@@ -1,2 +0,0 @@\n-a\n-b\n"), "\(removed)")
    }

    /// A hunk with lines on both sides starts at its first line on each.
    @Test func aHunkStartsAtItsFirstLine() {
        let diff = UnifiedDiff.render(
            expected: "a\nb\nc\n", actual: "a\nx\nc\n", expectedName: "t.golden", actualName: "actual")
        #expect(diff.contains("@@ -1,3 +1,3 @@\n a\n-b\n+x\n c\n"), "\(diff)")
    }

    /// Lines that differ only in spaces at their end look alike: the diff says so.
    @Test func linesDifferingOnlyInTrailingSpacesAreNamed() {
        let diff = UnifiedDiff.render(
            expected: "hi \nstate {}\n", actual: "hi\nstate {}\n", expectedName: "t.golden", actualName: "actual")
        #expect(diff.hasSuffix("(some lines differ only in spaces or tabs at their end)\n"), "\(diff)")
        let other = UnifiedDiff.render(
            expected: "hi\n", actual: "ho\n", expectedName: "t.golden", actualName: "actual")
        #expect(!other.contains("spaces or tabs"), "\(other)")
    }
}
