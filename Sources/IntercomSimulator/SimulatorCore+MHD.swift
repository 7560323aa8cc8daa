import CMicroHTTPD
import CMicroHTTPDShim
import Foundation

/// Turning libmicrohttpd callbacks into `route` calls and `SimulatedResponse`s into MHD responses.
extension SimulatorCore {
    private static let opaque = "5ccc069c403ebaf9f0171e9517f40e41"

    func handle(_ connection: OpaquePointer, url: String) -> MHD_Result {
        let faults = self.faults
        stall(ms: faults.delayMs)
        countCredentials(connection)
        switch authorize(connection) {
        case .granted:
            break
        case .challenge(let stale):
            count("401")
            return challenge(connection, stale: stale)
        }
        let cgi = url.split(separator: "/").last.map(String.init) ?? ""
        if faults.serverError {
            count("500")
            return queue(.text(status: 500, "Internal Server Error\r\n"), on: connection)
        }
        let response = route(cgi: cgi) { key in
            MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, key).map { String(cString: $0) }
        }
        return queue(response, on: connection)
    }

    /// Counts the schemes clients sent credentials with, so a test can prove a password never left
    /// the client in Basic (readable) form.
    private func countCredentials(_ connection: OpaquePointer) {
        guard let header = MHD_lookup_connection_value(connection, .HEADER_KIND, "Authorization") else { return }
        let scheme = String(cString: header).prefix { $0 != " " }.lowercased()
        count(scheme == "basic" || scheme == "digest" ? "authorization:\(scheme)" : "authorization:other")
    }

    private enum AuthOutcome {
        case granted
        case challenge(stale: Bool)
    }

    private func authorize(_ connection: OpaquePointer) -> AuthOutcome {
        switch options.auth {
        case .basic:
            return basicMatches(connection) ? .granted : .challenge(stale: false)
        case .digest:
            return digest(connection)
        case .both:
            let header = MHD_lookup_connection_value(connection, .HEADER_KIND, "Authorization")
                .map { String(cString: $0) } ?? ""
            if header.lowercased().hasPrefix("basic ") {
                return basicMatches(connection) ? .granted : .challenge(stale: false)
            }
            return digest(connection)
        }
    }

    private func digest(_ connection: OpaquePointer) -> AuthOutcome {
        let rc = MHD_digest_auth_check2(connection, realm, options.user, options.password, 300, .DIGEST_ALG_MD5)
        if rc == Int32(MHD_Result.YES.rawValue) { return .granted }
        return .challenge(stale: rc == MHD_INVALID_NONCE)
    }

    private func basicMatches(_ connection: OpaquePointer) -> Bool {
        var password: UnsafeMutablePointer<CChar>?
        let user = MHD_basic_auth_get_username_password(connection, &password)
        defer {
            if let user { MHD_free(user) }
            if let password { MHD_free(password) }
        }
        guard let user, let password else { return false }
        return String(cString: user) == options.user && String(cString: password) == options.password
    }

    private func challenge(_ connection: OpaquePointer, stale: Bool) -> MHD_Result {
        guard let response = MHDResponse.buffer(Data("Unauthorized\r\n".utf8), type: "text/plain") else { return .NO }
        defer { MHD_destroy_response(response) }
        switch options.auth {
        case .basic:
            return MHD_queue_basic_auth_fail_response(connection, realm, response)
        case .digest:
            return MHD_queue_auth_fail_response2(connection, realm, Self.opaque, response, stale ? 1 : 0, .DIGEST_ALG_MD5)
        case .both:
            _ = MHD_add_response_header(response, "WWW-Authenticate", "Basic realm=\"\(realm)\"")
            return MHD_queue_auth_fail_response2(connection, realm, Self.opaque, response, stale ? 1 : 0, .DIGEST_ALG_MD5)
        }
    }

    private func queue(_ answer: SimulatedResponse, on connection: OpaquePointer) -> MHD_Result {
        let status: UInt32
        let response: OpaquePointer?
        switch answer {
        case .text(let code, let body):
            status = code
            response = MHDResponse.buffer(Data(body.utf8), type: "text/plain")
        case .jpeg(let data):
            status = 200
            response = MHDResponse.buffer(data, type: "image/jpeg")
        case .huge(let bytes):
            status = 200
            response = MHDResponse.stream(HugeBody(total: bytes), blockSize: 64 * 1024, type: "image/jpeg")
        case .alarmStream:
            status = 200
            response = MHDResponse.stream(AlarmStreamBody(core: self, socket: intercom_mhd_connection_fd(connection)), blockSize: 1024, type: "text/plain")
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        return MHD_queue_response(connection, status, response)
    }

}
