package dev.platform.scheduler.reliability;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP relay on loopback between an agent and the scheduler that a test cuts and heals, as a
 * network partition does: {@link #cut()} drops every open connection and every new one until
 * {@link #heal()}.
 */
final class Partition implements AutoCloseable {

    private final ServerSocket server;
    private final int target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService relays = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "partition-relay");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean cut;

    Partition(int targetPort) throws IOException {
        this.target = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        relays.submit(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    void cut() {
        cut = true;
        open.forEach(Partition::closeQuietly);
        open.clear();
    }

    void heal() {
        cut = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                open.add(client);
                open.add(upstream);
                relays.submit(() -> pipe(client, upstream));
                relays.submit(() -> pipe(upstream, client));
            } catch (IOException closedOrRefused) {
                // the server socket closed, or the scheduler refused: the agent sees a dropped connection
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        try {
            from.getInputStream().transferTo(to.getOutputStream());
        } catch (IOException dropped) {
            // cut, or the other side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        cut();
        relays.shutdownNow();
    }
}
