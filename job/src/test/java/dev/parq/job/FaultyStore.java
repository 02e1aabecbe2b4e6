package dev.parq.job;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A proxy on loopback between parq and the S3 test server that fails the way object stores fail:
 * gone (connections refused), throttling ({@code 503 Slow Down} on a share of the requests), a
 * connection reset in the middle of a part upload's body, a request taken and never answered.
 * Passed through, each request goes to the server on a connection of its own ({@code Connection:
 * close}), so that every request, not every connection, meets the faults.
 */
final class FaultyStore implements AutoCloseable {

    private static final String SLOW_DOWN_BODY = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code>"
            + "<Message>Please reduce your request rate.</Message><RequestId>parq-test</RequestId></Error>";

    private final int serverPort;
    private final int port;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "faulty-store");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Random random = new Random(42);
    private volatile ServerSocket listener;

    private volatile double slowDownShare;
    /** The method whose every request is slowed down on its first try (request line and range), if any. */
    private volatile String firstTriesSlowedDown = "";
    private final Set<String> tried = ConcurrentHashMap.newKeySet();
    private final AtomicInteger partResetsLeft = new AtomicInteger();
    private final AtomicInteger hangsLeft = new AtomicInteger();
    private volatile String hangMethod = "";

    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger slowDowns = new AtomicInteger();
    private final AtomicInteger resets = new AtomicInteger();
    private final AtomicInteger hangs = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();

    private FaultyStore(int serverPort, ServerSocket listener) {
        this.serverPort = serverPort;
        this.listener = listener;
        this.port = listener.getLocalPort();
        accept(listener);
    }

    /** A proxy on a free loopback port in front of the server listening on {@code serverPort}. */
    static FaultyStore inFrontOf(int serverPort) throws IOException {
        return new FaultyStore(serverPort, listen(0));
    }

    /** The endpoint to give parq instead of the server's. */
    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** The server is gone: connections are refused, and those open are reset. */
    synchronized void goAway() throws IOException {
        if (listener != null) {
            listener.close();
            listener = null;
        }
        for (Socket socket : open) {
            reset(socket);
        }
    }

    /** The server is back, on the same port. */
    synchronized void comeBack() throws IOException {
        if (listener == null) {
            listener = listen(port);
            accept(listener);
        }
    }

    /** Answers this share of the requests (0 to 1) with {@code 503 Slow Down}. */
    void slowDown(double share) {
        slowDownShare = share;
    }

    /**
     * Answers the first try of every request of {@code method} ({@code GET}...) with {@code 503 Slow
     * Down}: a request that is the same (request line and {@code Range}) is a try again, and passes.
     * A client that does not try again fails on the first.
     */
    void slowDownFirstTries(String method) {
        firstTriesSlowedDown = method;
    }

    /** Resets the connection of the next {@code count} part uploads half way through their body. */
    void resetPartUploads(int count) {
        partResetsLeft.set(count);
    }

    /** Takes the next {@code count} requests of {@code method} ({@code GET}, {@code PUT}...) and never answers them. */
    void hang(String method, int count) {
        hangMethod = method;
        hangsLeft.set(count);
    }

    /** Passes every request through from now on (a store that is gone stays gone until it comes back). */
    void heal() {
        slowDownShare = 0;
        firstTriesSlowedDown = "";
        partResetsLeft.set(0);
        hangsLeft.set(0);
    }

    int requests() {
        return requests.get();
    }

    int slowDowns() {
        return slowDowns.get();
    }

    int resets() {
        return resets.get();
    }

    int hangs() {
        return hangs.get();
    }

    /** What the proxy did, for a test's messages. */
    String summary() {
        return requests + " requests: " + slowDowns + " slowed down, " + resets + " reset, " + hangs + " hung, "
                + refused + " connections reset while the store was gone";
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        return socket;
    }

    private void accept(ServerSocket on) {
        threads.execute(() -> {
            while (!on.isClosed()) {
                try {
                    Socket client = on.accept();
                    open.add(client);
                    threads.execute(() -> serve(client));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    private void serve(Socket client) {
        Socket server = null;
        try {
            InputStream in = new BufferedInputStream(client.getInputStream());
            String head = readHead(in);
            if (head == null) {
                return;
            }
            requests.incrementAndGet();
            String requestLine = head.substring(0, head.indexOf("\r\n"));
            String method = requestLine.substring(0, requestLine.indexOf(' '));
            long contentLength = contentLength(head);
            boolean expectsContinue = head.toLowerCase(Locale.ROOT).contains("\r\nexpect: 100-continue");
            if (listener == null) {
                refused.incrementAndGet();
                reset(client);
                return;
            }
            if (method.equals("PUT") && requestLine.contains("partNumber=") && take(partResetsLeft)) {
                resets.incrementAndGet();
                if (expectsContinue) {
                    continueBody(client);
                }
                in.readNBytes((int) Math.min(contentLength / 2, Integer.MAX_VALUE));
                reset(client);
                return;
            }
            if (method.equals(hangMethod) && take(hangsLeft)) {
                hangs.incrementAndGet();
                if (expectsContinue) {
                    continueBody(client);
                }
                in.skipNBytes(contentLength);
                // Taken whole and never answered: the socket stays open until the store goes away or the proxy closes.
                return;
            }
            boolean firstTry = method.equals(firstTriesSlowedDown) && tried.add(requestLine + range(head));
            if (firstTry || slowDownShare > 0 && nextDouble() < slowDownShare) {
                slowDowns.incrementAndGet();
                if (!expectsContinue) {
                    in.skipNBytes(contentLength);
                }
                byte[] body = SLOW_DOWN_BODY.getBytes(StandardCharsets.UTF_8);
                OutputStream out = client.getOutputStream();
                out.write(("HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: " + body.length
                        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                close(client);
                return;
            }
            server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
            open.add(server);
            Socket toServer = server;
            toServer.getOutputStream().write(withConnectionClose(head).getBytes(StandardCharsets.ISO_8859_1));
            threads.execute(() -> pipe(in, toServer, false));
            pipe(toServer.getInputStream(), client, true);
        } catch (IOException e) {
            close(client);
        } finally {
            if (server != null) {
                close(server);
            }
        }
    }

    /** Tells a client that waits for it ({@code Expect: 100-continue}) to send the request's body. */
    private static void continueBody(Socket client) throws IOException {
        client.getOutputStream().write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        client.getOutputStream().flush();
    }

    /** Copies until {@code from} ends; then closes {@code to} if {@code closeAfter}, else only its output. */
    private void pipe(InputStream from, Socket to, boolean closeAfter) {
        try {
            from.transferTo(to.getOutputStream());
            if (closeAfter) {
                close(to);
            } else {
                to.shutdownOutput();
            }
        } catch (IOException e) {
            close(to);
        }
    }

    private synchronized double nextDouble() {
        return random.nextDouble();
    }

    private static boolean take(AtomicInteger left) {
        return left.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }

    /** The request line and headers, up to the blank line; null if the client closed before. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1
                    : b == '\r' ? 1 : 0;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private static long contentLength(String head) {
        String length = header(head, "Content-Length");
        return length == null ? 0 : Long.parseLong(length);
    }

    private static String range(String head) {
        String range = header(head, "Range");
        return range == null ? "" : range;
    }

    /** The value of the header {@code name} in {@code head}, null if it has none. */
    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    private static String withConnectionClose(String head) {
        StringBuilder rewritten = new StringBuilder();
        for (String line : head.substring(0, head.length() - 4).split("\r\n")) {
            if (!line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
                rewritten.append(line).append("\r\n");
            }
        }
        return rewritten.append("Connection: close\r\n\r\n").toString();
    }

    /** Closes with a reset (RST), not an orderly end: what a client sees of a dropped connection. */
    private void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // Closed already.
        }
        close(socket);
    }

    private void close(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // Nothing left to release.
        }
    }

    @Override
    public void close() throws IOException {
        goAway();
        threads.shutdownNow();
    }
}
