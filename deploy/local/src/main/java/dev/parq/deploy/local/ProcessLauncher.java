package dev.parq.deploy.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

import dev.parq.deploy.local.LocalCluster.Application;

/**
 * Starts the cluster's JVMs as flink-dist's {@code bin/} scripts do: the same main classes, memory
 * flags computed by Flink's own process-memory utilities from the cluster's configuration, the JVM
 * options it names, the environment {@code bin/config.sh} exports, a log file each. The processes
 * are detached: they run on after the JVM that starts them exits, found again by their records.
 */
final class ProcessLauncher {

    static final String CLI_MAIN = "org.apache.flink.client.cli.CliFrontend";
    private static final String JOB_MANAGER_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String APPLICATION_JOB_MANAGER_MAIN =
            "org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint";
    private static final String TASK_MANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

    private final ClusterDir dir;
    private final ClusterSpec spec;
    private final ClassArchive archive;

    ProcessLauncher(ClusterDir dir, ClusterSpec spec) {
        this.dir = dir;
        this.spec = spec;
        this.archive = new ClassArchive(dir, spec.classArchives());
    }

    /**
     * With high availability the JobManager's RPC port is {@code high-availability.jobmanager.port}
     * (the TaskManagers learn it from ZooKeeper), and each JobManager has its own REST port.
     */
    ClusterProcess launchJobManager(int number, int restPort, int rpcPort) throws IOException {
        Configuration config = ClusterConfig.load(dir);
        // bin/jobmanager.sh: JVM memory flags and the derived memory settings from BashJavaUtils.
        JobManagerProcessSpec memory = JobManagerProcessUtils.processSpecFromConfig(config);
        String own = spec.highAvailability()
                ? " -D rest.port=" + restPort + " -D high-availability.jobmanager.port=" + rpcPort
                : "";
        Application application = spec.application();
        List<String> program = List.of();
        if (application != null) {
            // --jars takes every word up to the next option, so it goes before --job-classname
            program = new ArrayList<>(List.of("--jars", application.jar().toUri().toString(),
                    "--job-classname", application.mainClass()));
            program.addAll(application.args());
        }
        return launch(ClusterProcess.name(ClusterProcess.JOB_MANAGER, number),
                application == null ? JOB_MANAGER_MAIN : APPLICATION_JOB_MANAGER_MAIN,
                JobManagerProcessUtils.generateJvmParametersStr(memory, config),
                JobManagerProcessUtils.generateDynamicConfigsStr(memory) + own,
                orderedPorts("rest", restPort, "rpc", rpcPort), program);
    }

    ClusterProcess launchTaskManager(int number) throws IOException {
        Configuration config = ClusterConfig.load(dir);
        // bin/taskmanager.sh: the TaskManager refuses to start without its memory components set.
        TaskExecutorProcessSpec memory = TaskExecutorProcessUtils.processSpecFromConfig(config);
        String name = ClusterProcess.name(ClusterProcess.TASK_MANAGER, number);
        int rpcPort = Loopback.freePort();
        int dataPort = Loopback.freePort();
        // Its own ports, recorded for status, and its name as the id the JobManager lists it under.
        String own = " -D taskmanager.rpc.port=" + rpcPort + " -D taskmanager.data.port=" + dataPort
                + " -D taskmanager.resource-id=" + name;
        return launch(name, TASK_MANAGER_MAIN, ProcessMemoryUtils.generateJvmParametersStr(memory),
                TaskExecutorProcessUtils.generateDynamicConfigsStr(memory) + own,
                orderedPorts("rpc", rpcPort, "data", dataPort), List.of());
    }

    /**
     * {@code program}: the options and arguments of an application's main, after Flink's own. The
     * process maps its kind's class-data archive, or records one ({@link ClassArchive}).
     */
    private ClusterProcess launch(String name, String mainClass, String memoryFlags, String dynamicConfig,
            Map<String, Integer> ports, List<String> program) throws IOException {
        String role = ClusterProcess.roleOf(name);
        List<String> jvmOptions = jvmOptions(JvmOptions.split(memoryFlags),
                role.equals(ClusterProcess.JOB_MANAGER) ? CoreOptions.FLINK_JM_JVM_OPTIONS : CoreOptions.FLINK_TM_JVM_OPTIONS);
        List<String> command = new ArrayList<>(List.of(javaExecutable()));
        command.addAll(jvmOptions);
        command.addAll(archive.options(name, role, mainClass, jvmOptions, classPath()));
        command.addAll(logOptions(dir.logs().resolve(name + ".log")));
        command.addAll(classPathOptions());
        command.add(mainClass);
        command.addAll(List.of("--configDir", dir.conf().toString()));
        command.addAll(JvmOptions.split(dynamicConfig));
        command.addAll(program);
        return startDetached(name, command, ports);
    }

    /** Output to a file and no input: nothing ties the process to the JVM that starts it. Records it under {@code run/}. */
    ClusterProcess startDetached(String name, List<String> command, Map<String, Integer> ports) throws IOException {
        Process process = processBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(dir.logs().resolve(name + ".out").toFile())
                .start();
        ClusterProcess record = new ClusterProcess(name, process.pid(), ports);
        record.write(dir.run());
        return record;
    }

    /**
     * {@code java MEMORY JAVA_OPTS ROLE_OPTS -Dlog.file=LOG log4j-config -cp lib/*:DIR/lib/*}, without the main
     * class: the options for every process ({@code env.java.opts.all}), then those of its role, as
     * Flink's own scripts put them, variables expanded as they do.
     */
    List<String> javaCommand(List<String> memoryFlags, ConfigOption<String> roleOptions, Path logFile) {
        List<String> command = new ArrayList<>(List.of(javaExecutable()));
        command.addAll(jvmOptions(memoryFlags, roleOptions));
        command.addAll(logOptions(logFile));
        command.addAll(classPathOptions());
        return command;
    }

    private List<String> jvmOptions(List<String> memoryFlags, ConfigOption<String> roleOptions) {
        List<String> options = new ArrayList<>(memoryFlags);
        Configuration config = ClusterConfig.load(dir);
        // lib/ is that of the assembled distribution, so its parent is FLINK_HOME, as for bin/.
        Map<String, String> variables = Map.of("FLINK_HOME", spec.lib().getParent().toString(),
                "FLINK_CONF_DIR", dir.conf().toString());
        options.addAll(JvmOptions.words(config.get(CoreOptions.FLINK_JVM_OPTIONS), variables));
        options.addAll(JvmOptions.words(config.get(roleOptions), variables));
        return options;
    }

    /** The directories whose jars are on every process's class path, in order. */
    private List<Path> classPath() {
        return List.of(spec.lib(), dir.lib());
    }

    private List<String> classPathOptions() {
        return List.of("-classpath", classPath().stream().map(directory -> directory + "/*")
                .collect(Collectors.joining(File.pathSeparator)));
    }

    List<String> logOptions(Path logFile) {
        return List.of("-Dlog.file=" + logFile, "-Dlog4j.configurationFile=" + dir.conf().resolve("log4j.properties").toUri());
    }

    static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** With what bin/config.sh exports to every Flink process it starts. */
    ProcessBuilder processBuilder(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("FLINK_CONF_DIR", dir.conf().toString());
        builder.environment().put("FLINK_LIB_DIR", spec.lib().toString());
        builder.environment().put("FLINK_PLUGINS_DIR", dir.path().resolve("plugins").toString());
        return builder;
    }

    private static Map<String, Integer> orderedPorts(String first, int firstPort, String second, int secondPort) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put(first, firstPort);
        ports.put(second, secondPort);
        return ports;
    }
}
