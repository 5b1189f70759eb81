package io.deltafunnel.emulator.semantics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The database's principals ({@code sys.database_principals}) and permissions ({@code sys.database_permissions}), as
 * far as the emulator models them: the fixed principals of a new database, roles from {@code CREATE ROLE}, users from
 * {@code CREATE USER ... WITHOUT LOGIN}, and object permissions (class 1) from {@code GRANT}/{@code DENY}/{@code
 * REVOKE} plus the CONNECT (class 0) that {@code CREATE USER} grants. Nothing is enforced: the emulator's one login is
 * a sysadmin. A permission belongs to its object: {@link Catalog#remove} (DROP TABLE) drops the object's rows, and so
 * does ALTER SCHEMA ... TRANSFER (as its documentation says), while TRUNCATE, INSERT, ALTER TABLE ... SWITCH and
 * sp_rename keep them (the object id is unchanged). Thread-safe.
 */
public final class Permissions {
    /** dbo, the grantor of every permission (the emulator's login maps to dbo). */
    public static final int DBO = 1;
    /** User-defined principals start here, like SQL Server's. */
    private static final int FIRST_PRINCIPAL_ID = 5;

    /** A database principal: a user (type S, SQL_USER) or a role (R, DATABASE_ROLE). */
    public record Principal(String name, int id, String type, String typeDesc, String defaultSchema, Integer owner,
            boolean fixedRole, int authenticationType, String authenticationTypeDesc) {
        public boolean isRole() {
            return type.equals("R");
        }
    }

    /** The permission names the emulator accepts on a table, with sys.database_permissions' type code. */
    public enum Kind {
        SELECT("SL"), INSERT("IN"), UPDATE("UP"), DELETE("DL"), ALTER("AL"), CONTROL("CL"), REFERENCES("RF"),
        VIEW_DEFINITION("VW");

        public final String code;

        Kind(String code) {
            this.code = code;
        }

        /** As sys.database_permissions.permission_name writes it ({@code VIEW DEFINITION}). */
        public String permissionName() {
            return name().replace('_', ' ');
        }
    }

    /** One row of sys.database_permissions; {@code state} is G, W (with grant option) or D. */
    public record Row(int classId, int majorId, int grantee, String type, String permissionName, char state) {
        public String classDesc() {
            return classId == 0 ? "DATABASE" : "OBJECT_OR_COLUMN";
        }

        public String stateDesc() {
            return switch (state) {
                case 'D' -> "DENY";
                case 'W' -> "GRANT_WITH_GRANT_OPTION";
                default -> "GRANT";
            };
        }

        boolean sameEntry(int c, int major, int who, String t) {
            return classId == c && majorId == major && grantee == who && type.equals(t);
        }
    }

    private final Map<String, Principal> principals = new LinkedHashMap<>();
    private final List<Row> rows = new ArrayList<>();
    private int nextPrincipalId = FIRST_PRINCIPAL_ID;

    Permissions() {
        add(new Principal("public", 0, "R", "DATABASE_ROLE", null, DBO, false, 0, "NONE"));
        add(new Principal("dbo", DBO, "S", "SQL_USER", "dbo", null, false, 1, "INSTANCE"));
        add(new Principal("guest", 2, "S", "SQL_USER", "guest", null, false, 0, "NONE"));
        add(new Principal("INFORMATION_SCHEMA", 3, "S", "SQL_USER", null, null, false, 0, "NONE"));
        add(new Principal("sys", 4, "S", "SQL_USER", null, null, false, 0, "NONE"));
        String[] fixed = {"db_owner", "db_accessadmin", "db_securityadmin", "db_ddladmin", null, "db_backupoperator",
            "db_datareader", "db_datawriter", "db_denydatareader", "db_denydatawriter"};
        for (int i = 0; i < fixed.length; i++) {
            if (fixed[i] != null) {
                add(new Principal(fixed[i], 16384 + i, "R", "DATABASE_ROLE", null, DBO, true, 0, "NONE"));
            }
        }
        rows.add(new Row(0, 0, DBO, "CO", "CONNECT", 'G'));
    }

    private void add(Principal p) {
        principals.put(p.name().toLowerCase(Locale.ROOT), p);
    }

    public synchronized Principal principal(String name) {
        return principals.get(name.toLowerCase(Locale.ROOT));
    }

    public synchronized List<Principal> principals() {
        List<Principal> all = new ArrayList<>(principals.values());
        all.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return all;
    }

    /** CREATE ROLE (owner dbo) or CREATE USER ... WITHOUT LOGIN (granted CONNECT); the caller checked the name. */
    public synchronized Principal create(String name, boolean role, String defaultSchema) {
        int id = nextPrincipalId++;
        Principal p = role ? new Principal(name, id, "R", "DATABASE_ROLE", null, DBO, false, 0, "NONE")
                : new Principal(name, id, "S", "SQL_USER", defaultSchema, null, false, 0, "NONE");
        add(p);
        if (!role) {
            rows.add(new Row(0, 0, id, "CO", "CONNECT", 'G'));
        }
        return p;
    }

    /** DROP ROLE / DROP USER (or the undo of a CREATE): the principal and every permission granted to it go. */
    public synchronized void drop(Principal p) {
        principals.remove(p.name().toLowerCase(Locale.ROOT));
        rows.removeIf(r -> r.grantee() == p.id());
    }

    /** The current row for {@code kind} on object {@code objectId} for {@code grantee}, or null. */
    public synchronized Row objectRow(int objectId, int grantee, Kind kind) {
        for (Row r : rows) {
            if (r.sameEntry(1, objectId, grantee, kind.code)) {
                return r;
            }
        }
        return null;
    }

    /**
     * Sets the object permission's state ({@code G}, {@code W}, {@code D}), replacing any earlier GRANT or DENY of the
     * same permission to the same principal; {@code state} null removes it (REVOKE).
     */
    public synchronized void setObject(int objectId, int grantee, Kind kind, Character state) {
        int at = -1;
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).sameEntry(1, objectId, grantee, kind.code)) {
                at = i;
                break;
            }
        }
        Row row = state == null ? null : new Row(1, objectId, grantee, kind.code, kind.permissionName(), state);
        if (at >= 0 && row != null) {
            rows.set(at, row);
        } else if (at >= 0) {
            rows.remove(at);
        } else if (row != null) {
            rows.add(row);
        }
    }

    /** The object's permissions go: DROP TABLE, and ALTER SCHEMA ... TRANSFER ("All permissions ... dropped"). */
    public synchronized void dropObject(int objectId) {
        rows.removeIf(r -> r.classId() == 1 && r.majorId() == objectId);
    }

    public synchronized List<Row> rows() {
        return List.copyOf(rows);
    }
}
