/// The notification server's script (Debian's python3 with GI): `org.freedesktop.Notifications`
/// on the bus of `DBUS_SESSION_BUS_ADDRESS`. Each call is one JSON line on stdout with the wall
/// time it arrived; stdin takes `invoke ID KEY` (ActionInvoked from the server), `forge ID KEY`
/// (the same signal from another connection: an impostor) and `close ID` (dismissed).
extension NotificationServerStub {
    static let script = #"""
import json, sys, time
from gi.repository import Gio, GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
XML = """<node><interface name="org.freedesktop.Notifications">
<method name="GetCapabilities"><arg type="as" direction="out"/></method>
<method name="Notify"><arg type="s"/><arg type="u"/><arg type="s"/><arg type="s"/><arg type="s"/>
<arg type="as"/><arg type="a{sv}"/><arg type="i"/><arg type="u" direction="out"/></method>
<method name="CloseNotification"><arg type="u"/></method>
<method name="GetServerInformation"><arg type="s" direction="out"/><arg type="s" direction="out"/>
<arg type="s" direction="out"/><arg type="s" direction="out"/></method>
<signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
<signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
</interface></node>"""
actions = sys.argv[1] == "actions"
address = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None)
flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
conn = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
impostor = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
counter = [0]

def say(arrived=None, **fields):
    fields["time"] = arrived or time.time()
    print(json.dumps(fields), flush=True)

def on_call(connection, sender, path, interface, method, params, invocation):
    # The time it arrived, before the picture's bytes are looked at.
    arrived = time.time()
    if method == "GetCapabilities":
        caps = ["body", "body-markup", "icon-static", "persistence"] + (["actions"] if actions else [])
        invocation.return_value(GLib.Variant("(as)", (caps,)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("stub", "intercom-tests", "1", "1.2")))
    elif method == "Notify":
        app, replaces, icon, summary, body, acts = [params.get_child_value(i).unpack() for i in range(6)]
        hints = params.get_child_value(6)
        timeout = params.get_child_value(7).unpack()
        if replaces:
            nid = replaces
        else:
            counter[0] += 1
            nid = counter[0]
        image = None
        # Read without unpacking the pixels into a Python list (slow for 640x480x3).
        picture = hints.lookup_value("image-data", None)
        if picture is not None:
            w, h, stride, alpha, bps, channels = [picture.get_child_value(i).unpack() for i in range(6)]
            image = {"width": w, "height": h, "rowstride": stride, "alpha": alpha, "bps": bps,
                     "channels": channels, "bytes": picture.get_child_value(6).get_data_as_bytes().get_size()}
        keys = sorted(hints.get_child_value(i).get_child_value(0).unpack() for i in range(hints.n_children()))
        urgency = hints.lookup_value("urgency", None)
        say(arrived, call="Notify", id=nid, replaces=replaces, app=app, summary=summary, body=body, actions=acts,
            hints=keys, urgency=urgency.unpack() if urgency is not None else None, image=image, timeout=timeout, sender=sender)
        invocation.return_value(GLib.Variant("(u)", (nid,)))
    elif method == "CloseNotification":
        (nid,) = params.unpack()
        say(call="CloseNotification", id=nid)
        invocation.return_value(None)
        connection.emit_signal(None, PATH, NAME, "NotificationClosed", GLib.Variant("(uu)", (nid, 3)))

node = Gio.DBusNodeInfo.new_for_xml(XML)
conn.register_object(PATH, node.interfaces[0], on_call, None, None)

def acquired(connection, name):
    say(call="ready", name=connection.get_unique_name())

Gio.bus_own_name_on_connection(conn, NAME, Gio.BusNameOwnerFlags.NONE, acquired, None)

def on_stdin(channel, condition):
    line = channel.readline()
    if not line:
        loop.quit()
        return False
    parts = line.split()
    if parts[0] in ("invoke", "forge"):
        who = conn if parts[0] == "invoke" else impostor
        say(call=parts[0], id=int(parts[1]), key=parts[2])
        who.emit_signal(None, PATH, NAME, "ActionInvoked", GLib.Variant("(us)", (int(parts[1]), parts[2])))
        who.flush_sync(None)
    elif parts[0] == "close":
        conn.emit_signal(None, PATH, NAME, "NotificationClosed", GLib.Variant("(uu)", (int(parts[1]), 2)))
    return True

GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN | GLib.IOCondition.HUP, on_stdin)
loop = GLib.MainLoop()
loop.run()
"""#
}
