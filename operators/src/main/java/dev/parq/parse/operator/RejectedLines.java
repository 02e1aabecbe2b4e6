package dev.parq.parse.operator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * Encodes a bad line as one NDJSON record of the rejected-lines output:
 * {@code {"file":…, "offset":…, "error":…, "line":…}}, with {@code line_base64} in place of
 * {@code line} when the line is not valid UTF-8, so that its exact bytes survive; and a damaged
 * compressed file as a record without either.
 */
public final class RejectedLines {

    private static final JsonFactory JSON = new JsonFactory();

    private RejectedLines() {}

    public static String encode(String file, long offset, String error, ByteBuffer buf, int start, int end) {
        ByteBuffer line = buf.duplicate();
        line.limit(end).position(start);
        return record(file, offset, error, line, end - start + 128);
    }

    /**
     * The record of a file whose compressed stream is damaged: no line, {@code offset} the first
     * byte of its decompressed stream that could not be read, {@code error} what is wrong.
     */
    public static String damaged(String file, long offset, String error) {
        return record(file, offset, error, null, 256);
    }

    private static String record(String file, long offset, String error, ByteBuffer line, int sizeHint) {
        StringWriter out = new StringWriter(sizeHint);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("file", file);
            json.writeNumberField("offset", offset);
            json.writeStringField("error", error);
            String text = line == null ? null : decodeStrictly(line.duplicate());
            if (text != null) {
                json.writeStringField("line", text);
            } else if (line != null) {
                byte[] bytes = new byte[line.remaining()];
                line.get(bytes);
                json.writeStringField("line_base64", Base64.getEncoder().encodeToString(bytes));
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static String decodeStrictly(ByteBuffer bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = decoder.decode(bytes);
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
