package io.deltafunnel.benchmark;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Types;

/**
 * The smallest metadata wrapper that makes {@code SQLServerBulkCopy.writeToServer(ResultSet)} work correctly over a
 * DuckDB JDBC ResultSet. Two of DuckDB's metadata answers mislead the driver:
 *
 * <ol>
 *   <li>VARCHAR columns report precision {@link Integer#MAX_VALUE}. The driver then treats them as LOBs and reads
 *       them with {@code getCharacterStream}, which DuckDB does not support: the copy fails with "Unable to
 *       retrieve data from the source".</li>
 *   <li>TIMESTAMP columns report scale 0. The driver declares the bulk column as {@code datetime2(0)} and SQL
 *       Server drops every sub-second digit, without any error.</li>
 * </ol>
 *
 * Only {@code getMetaData()} is intercepted; every value call goes straight to DuckDB's ResultSet (through a JDK
 * dynamic proxy).
 */
public final class DuckDbResultSets {

    /** The precision reported for VARCHAR columns instead of Integer.MAX_VALUE (nvarchar(4000), not PLP). */
    public static final int VARCHAR_PRECISION = 4000;
    /** DuckDB TIMESTAMP is microseconds. */
    public static final int TIMESTAMP_SCALE = 6;

    private DuckDbResultSets() {
    }

    /** Both fixes: VARCHAR precision and TIMESTAMP scale. */
    public static ResultSet forBulkCopy(ResultSet duckdb) {
        return wrap(duckdb, true, true);
    }

    /** Only the VARCHAR precision fix (reproduces the silent loss of sub-second digits). */
    public static ResultSet varcharFixOnly(ResultSet duckdb) {
        return wrap(duckdb, true, false);
    }

    static ResultSet wrap(ResultSet duckdb, boolean fixVarchar, boolean fixTimestamp) {
        InvocationHandler rs = (proxy, method, args) -> {
            Object result = invoke(duckdb, method, args);
            if ("getMetaData".equals(method.getName()) && result != null) {
                return metaData((ResultSetMetaData) result, fixVarchar, fixTimestamp);
            }
            return result;
        };
        return (ResultSet) Proxy.newProxyInstance(DuckDbResultSets.class.getClassLoader(),
                new Class<?>[] {ResultSet.class}, rs);
    }

    private static ResultSetMetaData metaData(ResultSetMetaData md, boolean fixVarchar, boolean fixTimestamp) {
        InvocationHandler h = (proxy, method, args) -> {
            String name = method.getName();
            if (fixVarchar && "getPrecision".equals(name)) {
                int type = md.getColumnType((Integer) args[0]);
                if ((type == Types.VARCHAR || type == Types.NVARCHAR) && md.getPrecision((Integer) args[0])
                        > VARCHAR_PRECISION) {
                    return VARCHAR_PRECISION;
                }
            }
            if (fixTimestamp && "getScale".equals(name)) {
                int type = md.getColumnType((Integer) args[0]);
                if (type == Types.TIMESTAMP) {
                    return TIMESTAMP_SCALE;
                }
            }
            return invoke(md, method, args);
        };
        return (ResultSetMetaData) Proxy.newProxyInstance(DuckDbResultSets.class.getClassLoader(),
                new Class<?>[] {ResultSetMetaData.class}, h);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
