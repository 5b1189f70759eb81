package io.deltafunnel.emulator.semantics;

/** A column as SQL Server declared it. Immutable. */
public final class ColumnDef {
    private final String name;
    private final SqlType type;
    private final boolean nullable;
    private final boolean identity;
    private final long identitySeed;
    private final long identityIncrement;
    /** H2 default expression text, or null. */
    private final String defaultH2;
    /** Default expression as the client wrote it (T-SQL), or null. */
    private final String defaultSql;

    public ColumnDef(String name, SqlType type, boolean nullable, boolean identity, long identitySeed,
            long identityIncrement, String defaultH2, String defaultSql) {
        this.name = name;
        this.type = type;
        this.nullable = nullable;
        this.identity = identity;
        this.identitySeed = identitySeed;
        this.identityIncrement = identityIncrement;
        this.defaultH2 = defaultH2;
        this.defaultSql = defaultSql;
    }

    public static ColumnDef simple(String name, SqlType type, boolean nullable) {
        return new ColumnDef(name, type, nullable, false, 0, 0, null, null);
    }

    public String name() {
        return name;
    }

    public SqlType type() {
        return type;
    }

    public boolean nullable() {
        return nullable;
    }

    public boolean identity() {
        return identity;
    }

    public long identitySeed() {
        return identitySeed;
    }

    public long identityIncrement() {
        return identityIncrement;
    }

    public String defaultH2() {
        return defaultH2;
    }

    public String defaultSql() {
        return defaultSql;
    }

    public ColumnDef renamed(String newName) {
        return new ColumnDef(newName, type, nullable, identity, identitySeed, identityIncrement, defaultH2,
                defaultSql);
    }

    /** Copy for SELECT INTO: keeps type, nullability and identity; drops defaults. */
    public ColumnDef forSelectInto() {
        return new ColumnDef(name, type, nullable, identity, identitySeed, identityIncrement, null, null);
    }
}
