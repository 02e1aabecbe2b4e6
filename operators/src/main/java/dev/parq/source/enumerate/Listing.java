package dev.parq.source.enumerate;

import java.util.List;

/** The objects a listing found, in path order, and how many folders it listed to find them. */
public record Listing(List<InputFile> objects, int folders) {

    public Listing {
        objects = List.copyOf(objects);
    }
}
