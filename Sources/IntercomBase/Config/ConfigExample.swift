/// The text of `intercom config --example`. Kept as a literal (not built from
/// the model) so it can carry comments; a test parses it to keep it honest.
public enum ConfigExample {
    public static let text = #"""
# intercom configuration — ~/.config/intercom/config.ini
# INI: [section] or [section name], key = value. '#' or ';' after a space starts
# a comment; put a value in double quotes to keep a '#', ';' or edge spaces in it.
# If this file holds a password it must not be readable by others: chmod 600 it.

[sip]
listen = udp:127.0.0.1:5060      # one or more of udp:/tcp:HOST:PORT, comma separated
                                 # (IPv6 in brackets: tcp:[::1]:5070; port 0 = any free port;
                                 # no tls: liblinphone takes no incoming TLS, see tls_ca below)
unknown_callers = reject         # reject | accept  (calls whose caller matches no panel)
ring_timeout = 90                # seconds an unanswered call rings before it counts as missed
decline_others = off             # on = answering one call declines the others still ringing
media_timeout = 30               # seconds without RTP before an answered call ends (reason: error)
# registrar account (optional; without it the client takes direct calls only)
# account  = sip:101@pbx.example.org
# password = secret
# proxy    = sip:pbx.example.org:5060;transport=tcp
# register_expires = 600        # seconds between re-registrations
# SIP over TLS goes to a registrar: proxy = sip:HOST:5061;transport=tls (or a sips: account)
tls_ca     =                     # its CA certificate(s), PEM file or directory (empty = system store)
tls_verify = on                  # off accepts any registrar certificate: a lab only
tls_cert   =                     # our client certificate (PEM), for a registrar that asks for one
tls_key    =                     # its private key (PEM, unencrypted, chmod 600)
media_encryption = none          # none | srtp | srtp_mandatory: SRTP for call audio/video
                                 # (Beward panels send plain RTP: srtp_mandatory refuses them)

[audio]
playback = default               # device names as `intercom doctor` lists them
capture  = default
speaker  = default               # the device the speaker toggle switches to
ringtone = default               # a WAV path, or a name under Resources/ringtones

[panel entrance]
url       = http://192.168.1.50  # the panel's HTTP base URL (http or https)
user      = admin
password  = admin
auth      = digest               # digest | basic : basic lets the panel ask for the password
                                 # itself, readable on an http:// network; only for firmware
                                 # without Digest
model     = auto                 # auto | dks | ds  (auto reads systeminfo_cgi)
source    =                      # the addresses the panel's SIP packets come from (comma
                                 # separated IPs); default: the host of url. A direct call
                                 # is the panel's only when its packets come from there:
                                 # From and Contact, which any caller can write, never suffice
match     = sip:100001@          # which calls from those addresses are this panel's: a prefix
                                 # of the caller's SIP URI, or an IP (comma separated; default:
                                 # all of them). Through the [sip] account's registrar, whose
                                 # address is trusted, match alone names the panel
auto_open_interval = 5           # automatic door openings (guest mode, hooks) at most once
                                 # per this many seconds (0 = no limit)
dial      =                      # the SIP URI `intercom call` dials (panels allow it with
                                 # AllowIncoming/ckincall); default: a match URI with a host,
                                 # else sip:IP of the match rule or the url
dtmf.main = 1                    # DTMF that opens each door during a call (0-9 * # A-D;
dtmf.alt  = 2                    # write a lone '#' in quotes: "#")
dtmf.duration_ms = 250           # how long each tone lasts
dtmf.gap_ms      = 500           # pause between repeats of the sequence
dtmf.repeat      = 1             # send the sequence this many times (1-10)
open      = http                 # http | dtmf | both : how "open door" is done in a call
peephole_fps = 3                 # frames per second of the picture before answering (max 30)
calls     = on                   # off = do not disturb for this panel (calls declined or ignored)
auto_answer = off                # off | on | DELAY_SECONDS
guest_until =                    # "wait for guests": until this time (RFC 3339 or
                                 # "YYYY-MM-DD HH:MM" local), a call is answered,
                                 # the main door opened and the call ended by itself
tls_insecure = off               # on = accept a self-signed https certificate
ca_file   =                      # or trust this CA certificate (PEM path) for https
stream    =                      # main | sub : not sent to the panel yet (a warning says so);
                                 # pick StreamType in the panel's web UI

# [operator home]                # a SmartYard operator account: the subscriber's phone
# api   = https://api.operator.example/mobile   # number, not a panel's password; the
# phone = 79123456781            # operator's mobile API base URL. `intercom login home`
# ca_file =                      # keeps its token in $XDG_STATE_HOME/intercom/ (0600)

[daemon]
socket = $XDG_RUNTIME_DIR/intercom/control.sock

[journal]
keep_days = 90                   # pictures and entries older than this are removed
max_mb    = 500
path      =                      # empty = $XDG_DATA_HOME/intercom

[hooks]                          # a program per event type, run with argv + environment,
on_call_incoming =               # never through a shell; absolute paths only
on_door_opened   =
"""#
}
