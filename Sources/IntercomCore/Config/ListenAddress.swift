// Placeholder until the config layer lands; replaced by Config/ListenAddress.swift from the config branch.
public enum SIPTransport: String, Sendable, Equatable, CaseIterable { case udp, tcp, tls }

public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var transport: SIPTransport
    public var host: String
    public var port: Int
    public init(transport: SIPTransport, host: String, port: Int) {
        self.transport = transport; self.host = host; self.port = port
    }
    public var description: String {
        host.contains(":") ? "\(transport.rawValue):[\(host)]:\(port)" : "\(transport.rawValue):\(host):\(port)"
    }
}

public struct SIPAccount: Sendable, Equatable {
    public var identity: String
    public var password: String?
    public var proxy: String?
    public var expiresSeconds: Int
    public init(identity: String, password: String? = nil, proxy: String? = nil, expiresSeconds: Int = 600) {
        self.identity = identity; self.password = password; self.proxy = proxy; self.expiresSeconds = expiresSeconds
    }
}

public struct DTMFTiming: Sendable, Equatable {
    public var durationMs: Int
    public var gapMs: Int
    public var `repeat`: Int
    public init(durationMs: Int = 250, gapMs: Int = 500, repeat: Int = 1) {
        self.durationMs = durationMs; self.gapMs = gapMs; self.repeat = `repeat`
    }
}
