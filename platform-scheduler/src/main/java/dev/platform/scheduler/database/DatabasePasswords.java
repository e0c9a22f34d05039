package dev.platform.scheduler.database;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The embedded server's two passwords, generated at the first start and kept in the data directory, readable
 * by this operating-system user alone (files 0600 in a directory 0700): one of the superuser {@code postgres},
 * which only the scheduler's own set-up uses, and one of {@link #APPLICATION_ROLE}, the role the application
 * connects as. Any local user can reach the server's port; without one of these files no one can log in.
 *
 * @param superuserFile   {@code postgres-superuser.password}; also initdb's {@code --pwfile}
 * @param superuser       its content
 * @param superuserNew    made at this start: the cluster, if it exists, does not know it yet
 * @param application     the content of {@code postgres-platform.password}
 */
record DatabasePasswords(Path superuserFile, String superuser, boolean superuserNew, String application) {

    /** Not a superuser: it owns the schema {@code public} and everything in it, so Flyway's migrations run as it. */
    static final String APPLICATION_ROLE = "platform";
    static final String SUPERUSER = "postgres";
    static final String SUPERUSER_FILE = "postgres-superuser.password";
    static final String APPLICATION_FILE = "postgres-platform.password";

    private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * Reads both passwords, creating a missing one. Every start narrows the directory and the files to their owner
     * again, should a copy or a restore have widened them.
     */
    static DatabasePasswords loadOrCreate(Path dataDir) throws IOException {
        restrictToOwner(dataDir, OWNER_ONLY_DIRECTORY);
        Path superuserFile = dataDir.resolve(SUPERUSER_FILE);
        boolean superuserNew = !Files.exists(superuserFile);
        return new DatabasePasswords(superuserFile, readOrGenerate(superuserFile), superuserNew,
                readOrGenerate(dataDir.resolve(APPLICATION_FILE)));
    }

    private static String readOrGenerate(Path file) throws IOException {
        if (!Files.exists(file)) {
            // written whole under another name, then renamed: a start interrupted here leaves no half a password
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.deleteIfExists(partial);
            Files.createFile(partial);
            restrictToOwner(partial, OWNER_ONLY_FILE);
            Files.writeString(partial, generate() + "\n", StandardCharsets.US_ASCII);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        }
        restrictToOwner(file, OWNER_ONLY_FILE);
        String password = Files.readString(file, StandardCharsets.US_ASCII).strip();
        if (!password.matches("[A-Za-z0-9_-]{16,}")) {
            throw new EmbeddedDatabaseStartupException("The password file " + file + " does not hold a password this"
                    + " scheduler wrote.", "Restore the file from a backup of the data directory.");
        }
        return password;
    }

    /** 32 random bytes in URL-safe base64: nothing to quote in SQL or in a file. */
    private static String generate() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static void restrictToOwner(Path path, Set<PosixFilePermission> permissions) throws IOException {
        if (!PostgresBinaries.isWindows()) {
            Files.setPosixFilePermissions(path, permissions);
        }
    }
}
