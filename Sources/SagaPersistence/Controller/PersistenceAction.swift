/// An action of the persistence middleware for one kind of element: the requests an app
/// dispatches (`save`, `delete`, `request`, `cancelRequest`) and the results the middleware
/// dispatches back.
///
/// ```swift
/// store.dispatch(.save(Song(id: "1", title: "So What")))
/// // … later the middleware dispatches .saved(song) or .saveFailed(error:element:)
/// ```
public enum PersistenceAction<Element, PersistenceError: Error, Request> {
    case save(Element)
    case delete(Element)
    case request(Request)
    case cancelRequest
    case saved(Element)
    case saveFailed(error: PersistenceError, element: Element)
    case deleted(Element)
    case deleteFailed(error: PersistenceError, element: Element)
    /// The result of a request; a live request receives again after each change.
    case received([Element])
    case requestFailed(error: PersistenceError, request: Request)
    case canceled
}

/// In JSON, and to sagas through a `CodableBridge`: `{"save": {"element": …}}`,
/// `{"saveFailed": {"error": …, "element": …}}`, `{"received": {"elements": […]}}`,
/// `{"canceled": {}}`.
extension PersistenceAction: Codable where Element: Codable, PersistenceError: Codable, Request: Codable {
    enum SaveCodingKeys: String, CodingKey { case _0 = "element" }
    enum DeleteCodingKeys: String, CodingKey { case _0 = "element" }
    enum RequestCodingKeys: String, CodingKey { case _0 = "request" }
    enum SavedCodingKeys: String, CodingKey { case _0 = "element" }
    enum DeletedCodingKeys: String, CodingKey { case _0 = "element" }
    enum ReceivedCodingKeys: String, CodingKey { case _0 = "elements" }
}

extension PersistenceAction: Sendable where Element: Sendable, PersistenceError: Sendable, Request: Sendable {}
extension PersistenceAction: Equatable where Element: Equatable, PersistenceError: Equatable, Request: Equatable {}
