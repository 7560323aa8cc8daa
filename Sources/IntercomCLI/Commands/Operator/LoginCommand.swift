import Foundation
import IntercomBase
import IntercomOperator

/// `intercom login [OPERATOR] [--phone N]`: asks the operator for a confirmation code (an SMS, or
/// a flash call the subscriber makes), reads it, and keeps the token in the token store.
public enum LoginCommand {
    public static let spec = CommandSpec(
        name: "login",
        arguments: "[OPERATOR]",
        maxPositionals: 1,
        options: [
            .value("--phone", "N", "the subscriber's phone number (default: [operator] phone)"),
            .value("--wait", "SECONDS", "how long to wait for a confirmation call (default 180)"),
            .flag("--sms", "ask for the code by SMS"),
            .flag("--call", "confirm by calling the operator's number (the server's default when neither is given)"),
        ],
        details: """
            Without --sms or --call the operator chooses (SmartYard's default is a call).
            An SMS code is read from a prompt on a terminal, else from one line of standard input
            (echo 1234 | intercom login home). When the operator confirms by a call instead, the
            numbers to call are printed and the login completes once the call is seen.
            The token is kept in $XDG_STATE_HOME/intercom/operators/OPERATOR.json (0600), never printed.
            """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let op: OperatorConfig
        switch OperatorSelection.pick(invocation, name: invocation.arguments.positionals.first) {
        case .failure(let failure): return failure.report()
        case .success(let found): op = found
        }
        guard let phoneText = invocation.arguments.value("--phone") ?? op.phone else {
            return CommandError("no phone number for \(op.name): add phone = 7XXXXXXXXXX to [operator \(op.name)] or pass --phone",
                                code: ExitCode.usage).report()
        }
        guard let phone = OperatorConfig.normalizedPhone(phoneText) else {
            return CommandError(UsageError(message: "'\(phoneText)' is not a phone number (11 digits, e.g. 79123456781)",
                                           command: "login").description, code: ExitCode.usage).report()
        }
        let waitText = invocation.arguments.value("--wait") ?? "180"
        guard let wait = Int(waitText), wait > 0 else {
            return CommandError(UsageError(message: "--wait takes seconds, not '\(waitText)'", command: "login").description,
                                code: ExitCode.usage).report()
        }
        let method: LoginMethod?
        switch (invocation.arguments.has("--sms"), invocation.arguments.has("--call")) {
        case (true, true):
            return CommandError(UsageError(message: "--sms and --call exclude each other", command: "login").description,
                                code: ExitCode.usage).report()
        case (true, false): method = .sms
        case (false, true): method = .outgoingCall
        case (false, false): method = nil
        }
        do {
            let store = OperatorTokenStore(environment: invocation.environment)
            let credentials = try store.loadOrCreate(op.name)
            // Without a token: the login methods need none, and an old one must not be sent along.
            let client = try OperatorClient(config: op, token: nil)
            let grant: LoginGrant
            switch try await client.requestCode(phone: phone, deviceId: credentials.deviceId, method: method) {
            case .sms:
                guard let code = readCode(prompt: "\(op.name): enter the code sent by SMS to +\(phone): ") else {
                    return CommandError("no confirmation code read from standard input; type the code the operator sent by SMS",
                                        code: ExitCode.usage).report()
                }
                grant = try await client.confirmCode(phone: phone, code: code, deviceId: credentials.deviceId)
            case .outgoingCall(let numbers):
                let list = numbers.isEmpty ? "the number the operator gives" : numbers.map { "+" + $0 }.joined(separator: " or ")
                Console.out("\(op.name) confirms by a call: call \(list) from +\(phone) (it hangs up by itself); waiting up to \(wait) s")
                grant = try await awaitCall(client, phone: phone, deviceId: credentials.deviceId, seconds: wait)
            }
            try store.logIn(op.name, token: grant.token, deviceId: credentials.deviceId)
            Console.out("logged in to \(op.name)\(grant.name.map { " as \(TerminalSafe.escape($0))" } ?? ""); the token is kept in \(store.path(for: op.name))")
            return ExitCode.ok
        } catch {
            return error.commandError.report()
        }
    }

    /// A prompt on a terminal, else one line of standard input; nil when there is none.
    static func readCode(prompt: String) -> String? {
        if isatty(0) == 1 {
            _ = StandardStream.error.write(Array(TerminalSafe.lines(prompt).utf8))
        }
        guard let line = readLine(strippingNewline: true) else { return nil }
        let code = line.trimmingCharacters(in: .whitespaces)
        return code.isEmpty ? nil : code
    }

    /// How often `user/checkPhone` is asked while waiting for the call: the server looks the call
    /// up in its ISDN records, which take a few seconds to arrive; 3 s finds it as soon and asks less.
    static let checkPhoneInterval = Duration.seconds(3)

    /// Polls `user/checkPhone` until the operator has seen the call, or `seconds` pass.
    static func awaitCall(_ client: OperatorClient, phone: String, deviceId: String,
                          seconds: Int) async throws(OperatorError) -> LoginGrant {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while true {
            do {
                return try await client.checkPhone(phone: phone, deviceId: deviceId)
            } catch {
                switch error.kind {
                case .unreachable, .badAnswer, .local, .codeTooSoon, .paymentRequired, .tooManyAttempts, .deviceLimit:
                    throw error
                default:
                    // Not called yet: the server answers with a refusal until it sees the call.
                    guard ContinuousClock.now < deadline else {
                        throw OperatorError(operatorName: client.config.name, kind: .local(
                            detail: "no confirmation call from +\(phone) seen within \(seconds) s; run 'intercom login \(client.config.name)' and call again"),
                            serverText: error.serverText)
                    }
                }
            }
            try? await Task.sleep(for: checkPhoneInterval)
        }
    }
}
