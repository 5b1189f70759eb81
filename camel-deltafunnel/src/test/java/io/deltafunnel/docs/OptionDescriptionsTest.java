package io.deltafunnel.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each option of the Camel layer is described once: in the {@code description} of its field's {@code @UriPath},
 * {@code @UriParam} or {@code @Metadata}. Its field carries no Javadoc and its getter and setter none either, except
 * a one-line pointer to the field ({@code /** See {@link #field}. *}{@code /}); a second description, worded
 * differently, fails here. (The catalog JSON, the component pages and the starter's metadata are generated from the
 * annotations: {@link CatalogDescriptionsTest}, {@link ComponentPagesTest}.)
 */
class OptionDescriptionsTest {

    static final Path CAMEL_SOURCES = Path.of("src/main/java/io/deltafunnel/camel");

    /** An option field: its annotations (one of them with a description), then the field. */
    private static final Pattern OPTION_FIELD = Pattern.compile(
            "((?:[ \\t]*@(?:UriPath|UriParam|Metadata)\\b(?:\\((?:[^()\"]|\"(?:[^\"\\\\]|\\\\.)*\")*\\))?\\s*)+)"
            + "[ \\t]*private\\s+[\\w<>,.?\\s]+?\\s(\\w+)\\s*[;=]");
    private static final Pattern POINTER = Pattern.compile("/\\*\\* See \\{@link [\\w.]*#\\w+}\\. \\*/");

    @Test
    void noOptionIsDescribedTwice() throws IOException {
        List<String> second = new ArrayList<>();
        Set<String> options = new TreeSet<>();
        for (Path file : sources()) {
            String src = Files.readString(file);
            Matcher m = OPTION_FIELD.matcher(src);
            while (m.find()) {
                if (!m.group(1).contains("description")) {
                    continue; // e.g. @UriParam on the configuration field, @Metadata(required = true)
                }
                String option = m.group(2);
                options.add(option);
                String before = src.substring(0, m.start()).stripTrailing();
                if (before.endsWith("*/")) {
                    second.add(file.getFileName() + ": the field " + option + " has Javadoc besides its annotation");
                }
                String cap = Character.toUpperCase(option.charAt(0)) + option.substring(1);
                for (Path other : sources()) {
                    second.addAll(accessorJavadoc(other, cap));
                }
            }
        }
        assertTrue(options.containsAll(Set.of("table", "writeMode", "bulkEncoder", "query", "delta", "shardCount",
                "dataSource")), "the option fields were found: " + options);
        assertEquals(List.of(), second, "an option described a second time (setter/getter/field Javadoc); describe it"
                + " only in its annotation, or point to it with /** See {@link #field}. */");
    }

    /** Javadoc (other than a pointer) right before {@code get<Cap>(}, {@code is<Cap>(} or {@code set<Cap>(}. */
    private static List<String> accessorJavadoc(Path file, String cap) throws IOException {
        String src = Files.readString(file);
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile("(/\\*\\*(?:(?!\\*/).)*?\\*/)\\s*(?:@\\w+\\s*)*public\\s+[\\w<>,.?\\s]+?\\s((?:get|is|set)"
                + cap + ")\\s*\\(", Pattern.DOTALL).matcher(src);
        while (m.find()) {
            String doc = m.group(1);
            // the nearest Javadoc must belong to this method: nothing but annotations between them
            if (!POINTER.matcher(doc.strip()).matches()) {
                found.add(file.getFileName() + ": " + m.group(2) + " has Javadoc: " + doc.replaceAll("\\s+", " "));
            }
        }
        return found;
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.list(CAMEL_SOURCES)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
    }

    @Test
    void theScanFindsASecondDescription() {
        String src = """
                    @UriParam(label = "producer", description = "The target table ([s].[t]); (or t).")
                    private String table;

                    /** The table to write. */
                    public void setTable(String table) {
                """;
        Matcher field = OPTION_FIELD.matcher(src);
        assertTrue(field.find() && field.group(2).equals("table"), "the field is recognised");
        Matcher accessor = Pattern.compile("(/\\*\\*(?:(?!\\*/).)*?\\*/)\\s*(?:@\\w+\\s*)*public\\s+[\\w<>,.?\\s]+?\\s"
                + "((?:get|is|set)Table)\\s*\\(", Pattern.DOTALL).matcher(src);
        assertTrue(accessor.find() && !POINTER.matcher(accessor.group(1)).matches(), "the setter's Javadoc is found");
        assertTrue(POINTER.matcher("/** See {@link #table}. */").matches(), "a pointer is allowed");
    }
}
