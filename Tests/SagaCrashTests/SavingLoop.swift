/// The saga the crash tests kill: it saves elements one at a time, forever, and logs each id
/// once its `persistence/saved` acknowledgement has arrived.
///
/// Each round gets its own id range (`r<round>-<i>`), so rounds that share a store never
/// overwrite each other and every acknowledged id can be checked after every later kill.
enum SavingLoop {
    /// The id of the `i`th save of `round`.
    static func id(round: Int, _ i: Int) -> String { "r\(round)-\(i)" }

    /// The transcript line that acknowledges the `i`th save of `round`.
    static func line(round: Int, _ i: Int) -> String { "saved \(id(round: round, i))" }

    /// The saga text for `round`.
    static func source(round: Int) -> String {
        #"""
        saga main {
          var i = 0
          loop {
            put "persistence/save" { entity: "items", element: { id: "r\#(round)-\(i)", round: \#(round), n: i } }
            let s = take "persistence/saved"
            log "saved \(s.element.id)"
            i = i + 1
          }
        }

        """#
    }
}
