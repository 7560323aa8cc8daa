import Foundation

/// What a simulated endpoint answers, before it becomes an MHD response.
enum SimulatedResponse {
    case text(status: UInt32, String)
    case jpeg(Data)
    /// A chunked body of `bytes` filler after a JPEG start marker (the oversized-body fault).
    case huge(bytes: UInt64)
    /// The never-ending `alarmchangestate_cgi` body.
    case alarmStream

    static func ok() -> SimulatedResponse { .text(status: 200, "OK\r\n") }
    /// What firmware answers for a CGI it lacks: 200 and this one line (SmartYard-Server's drivers).
    static func notDefined(_ cgi: String) -> SimulatedResponse { .text(status: 200, "\(cgi) is not defined\n") }
    static func keyValues(_ pairs: [(String, String)]) -> SimulatedResponse {
        .text(status: 200, pairs.map { "\($0.0)=\($0.1)\r\n" }.joined())
    }
}
