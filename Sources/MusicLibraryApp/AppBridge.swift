import SagaCore
import SagaPersistence
import SagaRuntime

/// Shows the app's actions and state to sagas, hand-written because the wrapped generic
/// persistence actions have no natural `Codable` form.
///
/// | app action | what sagas see |
/// |---|---|
/// | `.addSong(title:album:year:)` | `{type: "library/addSong", title, album, year}` |
/// | `.songs(.save(s))`, `.albums(.save(a))` | `{type: "song/save", song}`, `{type: "album/save", album}` |
/// | `.songs(.saved(s))`, `.songs(.saveFailed(e, s))` | `{type: "song/saved", song}`, `{type: "song/saveFailed", song, error}` |
/// | other controller actions | `{type: "song/<case>"}` or `{type: "album/<case>"}` |
///
/// Sagas may put the first three kinds. A controller's results come back through the
/// interpreter carrying a `ticket` into the ``ResultMailbox``, which gives back the exact action.
/// The state is `{songs: [Song], albums: [Album]}`.
struct AppBridge: SagaBridge, Sendable {
    let mailbox: ResultMailbox

    func value(of action: AppAction) -> Value? {
        switch action {
        case .addSong(let title, let album, let year):
            return ["type": "library/addSong", "title": .string(title), "album": .string(album), "year": .int(year)]
        case .songs(let action):
            return Self.value(of: action, prefix: "song", field: "song")
        case .albums(let action):
            return Self.value(of: action, prefix: "album", field: "album")
        }
    }

    func action(from value: Value) throws(SagaError) -> AppAction {
        if case .int(let ticket) = value["ticket"], let action = mailbox.collect(ticket) { return action }
        switch value["type"].stringValue {
        case "library/addSong":
            return .addSong(
                title: try value["title"].decode(), album: try value["album"].decode(), year: try value["year"].decode()
            )
        case "song/save":
            return .songs(.save(try value["song"].decode()))
        case "album/save":
            return .albums(.save(try value["album"].decode()))
        default:
            throw SagaError.typeError("the app has no action \(value["type"].canonicalJSON) that a saga may put")
        }
    }

    func value(of state: AppState) -> Value {
        let songs = state.songsByID.values.sorted { $0.id < $1.id }
        let albums = state.albumsByID.values.sorted { $0.id < $1.id }
        return ["songs": (try? Value(encoding: songs)) ?? [], "albums": (try? Value(encoding: albums)) ?? []]
    }

    /// The value of a controller's result, with a ticket for the exact action.
    func delivery(of action: AppAction) -> Value {
        guard case .record(var fields)? = value(of: action) else { return .null }
        fields["ticket"] = .int(mailbox.post(action))
        return .record(fields)
    }

    /// `{type: "<prefix>/<case>", <field>: element, error?}` for one controller's action.
    private static func value<Element: Encodable, Failure, Request>(
        of action: PersistenceAction<Element, Failure, Request>, prefix: String, field: String
    ) -> Value {
        let name: String
        var element: Element?
        var error: String?
        switch action {
        case .save(let e): (name, element) = ("save", e)
        case .saved(let e): (name, element) = ("saved", e)
        case .saveFailed(let f, let e): (name, element, error) = ("saveFailed", e, "\(f)")
        case .delete(let e): (name, element) = ("delete", e)
        case .deleted(let e): (name, element) = ("deleted", e)
        case .deleteFailed(let f, let e): (name, element, error) = ("deleteFailed", e, "\(f)")
        case .request: name = "request"
        case .received: name = "received"
        case .requestFailed(let f, _): (name, error) = ("requestFailed", "\(f)")
        case .cancelRequest: name = "cancelRequest"
        case .canceled: name = "canceled"
        }
        var fields = Record()
        fields["type"] = .string(prefix + "/" + name)
        if let element { fields[field] = (try? Value(encoding: element)) ?? .null }
        if let error { fields["error"] = .string(error) }
        return .record(fields)
    }
}
