#!/usr/bin/env python3
"""A freedesktop.org notification server for the tests: owns org.freedesktop.Notifications on
the session bus DBUS_SESSION_BUS_ADDRESS names, writes each notification as a line
`APP<TAB>SUMMARY<TAB>BODY` to the file given, and prints `ready` once it owns the name.

    notification-server.py NOTES_FILE
"""
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
      <arg type="s" direction="out"/>
    </method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
  </interface>
</node>
"""

notes = open(sys.argv[1], "a", encoding="utf-8")
node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
counter = [0]


def call(connection, sender, path, interface, method, parameters, invocation):
    if method == "Notify":
        app, _, _, summary, body = parameters.unpack()[:5]
        notes.write(f"{app}\t{summary}\t{body}\n")
        notes.flush()
        counter[0] += 1
        invocation.return_value(GLib.Variant("(u)", (counter[0],)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("voicememo-tests", "voicememo", "1", "1.2")))
    elif method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (["body"],)))
    else:
        invocation.return_value(None)


def bus_acquired(connection, name):
    connection.register_object("/org/freedesktop/Notifications", node.interfaces[0], call, None, None)


def name_acquired(connection, name):
    print("ready", flush=True)


Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE,
                 bus_acquired, name_acquired, lambda *_: sys.exit(3))
GLib.MainLoop().run()
