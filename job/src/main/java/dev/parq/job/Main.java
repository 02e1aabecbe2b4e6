package dev.parq.job;

public final class Main {
    public static void main(String[] args) {
        System.out.println("parq");
    }
}
