package dev.parq.deploy.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** The one address every process of a local cluster listens on, and ports free on it. */
final class Loopback {

    static final String ADDRESS = "127.0.0.1";

    private Loopback() {}

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(ADDRESS))) {
            return socket.getLocalPort();
        }
    }
}
