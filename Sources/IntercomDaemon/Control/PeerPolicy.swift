import IntercomBase
/// Who may drive the daemon. The socket is already 0600 in a 0700 directory; this check is the
/// second fence, for a socket path someone pointed at a shared directory or root connecting in.
/// A pure function of the credentials, so a test can show the refusal with made-up peers.
public enum PeerPolicy {
    /// nil = allowed; else the one-line reason the connection is refused.
    public static func refusal(for peer: PeerCredentials?, ownUID: UInt32) -> String? {
        guard let peer else { return "peer credentials unavailable" }
        guard peer.uid == ownUID else {
            return "refused: uid \(peer.uid) is not the daemon's user (uid \(ownUID))"
        }
        return nil
    }
}
