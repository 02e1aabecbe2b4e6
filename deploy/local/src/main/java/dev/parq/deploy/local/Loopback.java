package dev.parq.deploy.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/** The one address every process of a local cluster listens on, and ports free on it. */
final class Loopback {

    static final String ADDRESS = "127.0.0.1";

    /** Where the kernel takes the ports of sockets bound to port 0 from, as Linux says it. */
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    /** The lowest port chosen: below it are the ports that servers commonly listen on. */
    private static final int LOWEST = 10_000;

    private Loopback() {}

    /**
     * A port free now, for a process that binds it seconds later: one below the kernel's ephemeral
     * range, which no socket bound to port 0 is given in the meantime (a TaskManager's data port,
     * chosen from that range, was taken by another process's outgoing connection before the
     * TaskManager bound it, and the cluster's start failed). Where the range cannot be read, or
     * leaves no room below it, a port the kernel picks.
     */
    static int freePort() throws IOException {
        int ephemeralLow = ephemeralLow();
        if (ephemeralLow - LOWEST >= 1000) {
            for (int attempt = 0; attempt < 100; attempt++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, ephemeralLow);
                try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(ADDRESS))) {
                    return socket.getLocalPort();
                } catch (IOException taken) {
                    // another one
                }
            }
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(ADDRESS))) {
            return socket.getLocalPort();
        }
    }

    /** The range's first port; read in one call, as a sysctl file gives nothing to a read past its start. */
    private static int ephemeralLow() {
        try (BufferedReader in = Files.newBufferedReader(EPHEMERAL_RANGE, StandardCharsets.US_ASCII)) {
            String line = in.readLine();
            return line == null ? 0 : Integer.parseInt(line.trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException unreadable) {
            return 0;
        }
    }
}
