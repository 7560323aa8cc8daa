import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Certificates made by the openssl CLI for one test, in its own directory: a self-signed server
/// certificate for 127.0.0.1, and a private CA that signs client certificates.
///
/// The server certificate names 127.0.0.1 as an IP *and* as a DNS name: curl/OpenSSL match an IP
/// host against IP entries, while belle-sip's mbedTLS compares the host with DNS entries only.
package struct TestCertificates: Sendable {
    package struct Pair: Sendable {
        package let certificate: String
        package let key: String
    }

    package let directory: TestDirectory
    package let server: Pair

    package init(directory: TestDirectory) async throws {
        self.directory = directory
        server = Pair(certificate: directory.file("server.crt").path, key: directory.file("server.key").path)
        try await Self.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                "-keyout", server.key, "-out", server.certificate, "-subj", "/CN=127.0.0.1",
                                "-addext", "subjectAltName=IP:127.0.0.1,DNS:127.0.0.1,DNS:localhost"], in: directory)
    }

    /// A CA and a client certificate it signed: (CA certificate path, client pair).
    package func clientCertificate(name: String = "client") async throws -> (ca: String, client: Pair) {
        let ca = Pair(certificate: directory.file("ca.crt").path, key: directory.file("ca.key").path)
        try await Self.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                "-keyout", ca.key, "-out", ca.certificate, "-subj", "/CN=intercom test CA"], in: directory)
        let client = Pair(certificate: directory.file("\(name).crt").path, key: directory.file("\(name).key").path)
        let request = directory.file("\(name).csr").path
        try await Self.openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", client.key, "-out", request,
                                "-subj", "/CN=\(name)"], in: directory)
        try await Self.openssl(["x509", "-req", "-in", request, "-CA", ca.certificate, "-CAkey", ca.key,
                                "-CAcreateserial", "-days", "2", "-out", client.certificate], in: directory)
        chmod(client.key, 0o600)
        return (ca.certificate, client)
    }

    private static func openssl(_ arguments: [String], in directory: TestDirectory) async throws {
        let result = try await Subprocess.run("openssl", arguments, logDirectory: directory.url, timeout: .seconds(30))
        guard result.status == 0 else {
            throw HarnessError("openssl \(arguments.first ?? "") failed (\(result.status)): \(result.stderr)")
        }
    }
}
