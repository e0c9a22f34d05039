package dev.platform.scheduler.reliability;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A TCP relay on loopback between an agent and the scheduler that a test cuts and heals, as a
 * network partition does: {@link #cut()} drops every open connection and every new one until
 * {@link #heal()}. With several targets it is also what a Service is to replicas: each new connection goes to
 * the next target in turn that accepts it.
 */
final class Partition implements AutoCloseable {

    private final ServerSocket server;
    private final Supplier<List<Integer>> targets;
    private final AtomicInteger turn = new AtomicInteger();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService relays = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "partition-relay");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean cut;

    Partition(int targetPort) throws IOException {
        this(() -> List.of(targetPort));
    }

    /** In front of the ports {@code targetPorts} answers at each connection: replicas restarted on new ports. */
    Partition(Supplier<List<Integer>> targetPorts) throws IOException {
        this.targets = targetPorts;
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
                Socket upstream;
                try {
                    upstream = connectToATarget();
                } catch (IOException refused) {
                    closeQuietly(client);
                    continue;
                }
                open.add(client);
                open.add(upstream);
                relays.submit(() -> pipe(client, upstream));
                relays.submit(() -> pipe(upstream, client));
            } catch (IOException closedOrRefused) {
                // the server socket closed, or the scheduler refused: the agent sees a dropped connection
            }
        }
    }

    private Socket connectToATarget() throws IOException {
        List<Integer> ports = targets.get();
        IOException refused = new IOException("no target");
        for (int i = 0; i < ports.size(); i++) {
            int port = ports.get(Math.floorMod(turn.getAndIncrement(), ports.size()));
            try {
                return new Socket(InetAddress.getLoopbackAddress(), port);
            } catch (IOException e) {
                refused = e;
            }
        }
        throw refused;
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
