import SagaCore
import SagaRuntime
import Testing

/// Integer arithmetic and comparison as programs see it.
///
/// The evaluator works two integers out itself (see `Evaluator.integerBinary`) and leaves the
/// rest to `Value`'s operators: results, and the error of an overflow, must be the same either
/// way.
@Suite struct IntegerArithmeticTests {
    @Test func integersAddSubtractMultiplyAndCompare() async {
        let run = await runSaga(
            """
            saga main {
              log [7 + 5, 7 - 5, 7 * 5, 7 / 2, 7 % 5, -3 * 4, -5 + 3, -5 - (0 - 3), -5 * (0 - 3)]
              for p in [[1, 2], [2, 2], [3, 2], [-5, -3], [-3, -5], [-4, -4]] {
                let a = p[0]
                let b = p[1]
                log [a < b, a <= b, a > b, a >= b, a == b, a != b]
              }
              log [1 == 1.0, 1 != 1.0, 1 < 1.5]
            }
            """)
        #expect(
            run.lines == [
                "[12,2,35,3.5,2,-12,-2,-2,15]",
                "[true,true,false,false,false,true]",
                "[false,true,false,true,true,false]",
                "[false,false,true,true,false,true]",
                "[true,true,false,false,false,true]",
                "[false,false,true,true,false,true]",
                "[false,true,false,true,true,false]",
                "[true,false,true]",
            ])
    }

    @Test func anIntegerOverflowIsAnErrorNotAWrap() async {
        let run = await runSaga(
            """
            saga main {
              var big = 9223372036854775807
              var small = -9223372036854775807 - 1
              try { log big + 1 } catch e { log "add: \\(e.kind) \\(e.message)" }
              try { log small - 1 } catch e { log "subtract: \\(e.kind) \\(e.message)" }
              try { log big * 2 } catch e { log "multiply: \\(e.kind) \\(e.message)" }
              log big - 1 + 1 == big
            }
            """)
        #expect(
            run.lines == [
                "add: ArithmeticError integer overflow", "subtract: ArithmeticError integer overflow",
                "multiply: ArithmeticError integer overflow", "true",
            ])
    }
}
