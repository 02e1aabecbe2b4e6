package dev.parq.source.enumerate;

import java.util.List;

/**
 * The files as the client resolved them, neither expanded again nor looked for again on the
 * cluster: the splits, the manifest and the tensor's file index all come from this one list.
 */
public final class StaticInputs implements InputDiscovery {
    private static final long serialVersionUID = 1L;

    private final List<InputFile> files;

    public StaticInputs(List<InputFile> files) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no input files");
        }
        this.files = List.copyOf(files);
    }

    @Override
    public List<InputFile> initialFiles() {
        return files;
    }
}
