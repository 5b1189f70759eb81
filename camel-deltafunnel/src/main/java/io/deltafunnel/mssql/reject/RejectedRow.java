package io.deltafunnel.mssql.reject;

import java.time.Instant;

import io.deltafunnel.arrow.read.JsonWriter;

/**
 * One source row a run set aside instead of loading: a row of the reject table ({@link RejectTable}) and a line of
 * what the producer's {@code rejectEndpoint} gets.
 *
 * @param runId       the run
 * @param routeKey    the route or state key of the run, or null when unknown
 * @param targetTable the target table, {@code schema.table}
 * @param batchIndex  0-based index of the batch in the run
 * @param rowIndex    0-based index of the row in its batch
 * @param sourceRow   the source row as JSON (the rendering of {@code ArrowJsonLines})
 * @param column      the target column the value was refused for, or null when SQL Server names none
 * @param errorNumber the SQL Server error number that refused the row, or null for a client-side rejection
 * @param check       the name of the client-side check that refused a value ({@code io.deltafunnel.mssql.bind
 *                    .Rejection}'s constants, e.g. {@code too-long}), or null for a server-side rejection
 * @param message     why
 * @param time        when the row was set aside
 */
public record RejectedRow(String runId, String routeKey, String targetTable, long batchIndex, long rowIndex,
        String sourceRow, String column, Integer errorNumber, String check, String message, Instant time) {

    /** The row as one JSON object (one line of the rejectEndpoint's body), without the newline. */
    public String toJson() {
        StringBuilder out = new StringBuilder(sourceRow.length() + 256).append('{');
        field(out, "runId", runId).append(',');
        field(out, "routeKey", routeKey).append(',');
        field(out, "targetTable", targetTable).append(',');
        out.append("\"batchIndex\":").append(batchIndex).append(",\"rowIndex\":").append(rowIndex).append(',');
        field(out, "column", column).append(',');
        out.append("\"errorNumber\":").append(errorNumber == null ? "null" : errorNumber.toString()).append(',');
        field(out, "check", check).append(',');
        field(out, "message", message).append(',');
        field(out, "time", time.toString()).append(',');
        return out.append("\"row\":").append(sourceRow).append('}').toString();
    }

    private static StringBuilder field(StringBuilder out, String name, String value) {
        out.append('"').append(name).append("\":");
        if (value == null) {
            return out.append("null");
        }
        JsonWriter.appendString(out, value);
        return out;
    }
}
