package dev.platform.scheduler.database;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * An exclusive lock on {@code scheduler.lock} in the data directory, held for as long as this
 * scheduler runs: a second scheduler on the same directory is refused at once, and a PostgreSQL
 * server found on the directory while the lock is free can only be one that a dead scheduler left.
 * The operating system releases the lock when the process ends, however it ends.
 */
final class DataDirectoryLock implements AutoCloseable {

    static final String FILE_NAME = "scheduler.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** @throws EmbeddedDatabaseStartupException when another scheduler holds the directory */
    static DataDirectoryLock acquire(Path dataDir) {
        Path file = dataDir.resolve(FILE_NAME);
        try {
            FileChannel channel = FileChannel.open(file, CREATE, READ, WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                channel.close();
                throw new EmbeddedDatabaseStartupException("The data directory " + dataDir
                        + " is in use by another running scheduler (" + holder(file) + ").",
                        "Stop that scheduler first, or give this one a data directory of its own with"
                                + " platform.embedded-db.data-dir.");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + "\n")
                    .getBytes(StandardCharsets.US_ASCII)), 0);
            return new DataDirectoryLock(channel, lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + file, e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldInThisJvm) {
            return null;
        }
    }

    private static String holder(Path file) {
        try {
            String content = Files.readString(file, StandardCharsets.US_ASCII).strip();
            return content.isEmpty() ? "process unknown" : content;
        } catch (IOException e) {
            return "process unknown";
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
