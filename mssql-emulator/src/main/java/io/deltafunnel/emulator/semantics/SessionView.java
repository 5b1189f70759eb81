package io.deltafunnel.emulator.semantics;

/**
 * What SQL Server's rules need to know about the session a statement runs in: the catalog, the isolation level and
 * the database's READ_COMMITTED_SNAPSHOT setting (for {@link LockPlanner}), and the table with IDENTITY_INSERT ON
 * (for {@link IdentityRules}). Implemented by {@code exec.Session}, so that these rules do not depend on execution.
 */
public interface SessionView {
    Catalog catalog();

    /** SET TRANSACTION ISOLATION LEVEL, one of the {@link LockPlanner} constants. */
    int isolationLevel();

    /** Whether the database has READ_COMMITTED_SNAPSHOT ON. */
    boolean readCommittedSnapshot();

    /** Object id of the table with SET IDENTITY_INSERT ON in this session, 0 if none. */
    int identityInsertTable();
}
