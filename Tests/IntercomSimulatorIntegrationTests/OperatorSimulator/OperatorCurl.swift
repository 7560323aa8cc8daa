import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator

/// One answer from the simulated operator, as curl saw it.
struct OperatorAnswer {
    let status: Int
    let contentType: String
    let body: Data
    /// curl's own exit status (28 = timed out).
    let curlStatus: Int32

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue? { JSONValue.parse(text) }
    var data: JSONValue? { json?["data"] }
    /// The error body's message (name and message are the same text on this server).
    var message: String? { json?["message"]?.stringValue }
}

/// Drives the simulated operator over real HTTP with the `curl` command, as an outside client would.
struct OperatorCurl {
    let base: String
    let directory: TestDirectory

    init(_ simulator: SimulatedOperator) throws {
        base = simulator.baseURL
        directory = try TestDirectory(prefix: "operator-curl")
    }

    /// POST `{base}/{method}` with a JSON body; `token` becomes `Authorization: Bearer …`,
    /// `authorization` is sent as the whole header instead; `language` as `Accept-Language`.
    func post(_ method: String, _ body: String = "{}", token: String? = nil, authorization: String? = nil,
              language: String? = nil, query: String = "", maxTime: Double = 20) async throws -> OperatorAnswer {
        var arguments = ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        if let authorization { arguments += ["-H", "Authorization: \(authorization)"] }
        if let language { arguments += ["-H", "Accept-Language: \(language)"] }
        return try await run(arguments, url: "\(base)/\(method)\(query)", maxTime: maxTime)
    }

    func get(_ url: String, maxTime: Double = 20) async throws -> OperatorAnswer {
        try await run([], url: url, maxTime: maxTime)
    }

    private func run(_ arguments: [String], url: String, maxTime: Double) async throws -> OperatorAnswer {
        let bodyFile = directory.file("body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        let all = ["-s", "--max-time", String(maxTime), "-o", bodyFile.path,
                   "-w", "%{http_code} %{content_type}"] + arguments + [url]
        let result = try await Subprocess.run("curl", all, logDirectory: directory.url, timeout: .seconds(Int(maxTime) + 10))
        let parts = result.stdout.split(separator: " ", maxSplits: 1).map(String.init)
        return OperatorAnswer(status: Int(parts.first ?? "") ?? 0, contentType: parts.count > 1 ? parts[1] : "",
                              body: (try? Data(contentsOf: bodyFile)) ?? Data(), curlStatus: result.status)
    }

    /// The test phone's login: requestCode, confirmCode with `device`; returns the token.
    /// `phone`/`code`: another test number (the resident's); the test phone's by default.
    func login(_ simulator: SimulatedOperator, device: String = "device-1", phone: String? = nil, code: String? = nil) async throws -> String {
        let phone = phone ?? simulator.options.testPhone
        let requested = try await post("user/requestCode", #"{"userPhone":"\#(phone)","method":"sms"}"#)
        guard requested.status == 200 else { throw HarnessError("requestCode answered \(requested.status): \(requested.text)") }
        let confirmed = try await post("user/confirmCode",
            #"{"userPhone":"\#(phone)","smsCode":"\#(code ?? simulator.options.testCode)","deviceToken":"\#(device)","platform":2}"#)
        guard let token = confirmed.data?["accessToken"]?.stringValue else {
            throw HarnessError("confirmCode answered \(confirmed.status): \(confirmed.text)")
        }
        return token
    }
}

/// Starts a simulated operator, runs `body`, and stops it whatever happens.
func withOperator(_ options: SimulatedOperatorOptions = .init(),
                  _ body: (SimulatedOperator, OperatorCurl) async throws -> Void) async throws {
    let simulator = try SimulatedOperator.start(options)
    try await withCleanup({ simulator.stop() }) {
        try await body(simulator, try OperatorCurl(simulator))
    }
}
