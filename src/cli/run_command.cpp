// tasklens run's flow (run_command.h): the checks, the experiment directory, the program's
// environment, the child, and what is said when nothing was recorded.
#include "cli/run_command.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/commands.h"
#include "cli/elf_info.h"
#include "cli/tool_paths.h"
#include "format/mpi_env.h"
#include "recorder/config.h"

namespace tasklens::cli {
namespace fs = std::filesystem;

namespace {

// Exit statuses of tasklens itself, in the shell's tradition (126/127) and GNU env's (125).
constexpr int kToolFailed = kRunToolFailed;
constexpr int kNotExecutable = 126;
constexpr int kNotFound = 127;

std::string default_output_dir(const std::string& program) {
  char stamp[32];
  time_t now = time(nullptr);
  tm local{};
  localtime_r(&now, &local);
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  std::string base = "tasklens-" + fs::path(program).filename().string() + "-" + stamp;
  std::string dir = base;
  for (int i = 2; fs::exists(dir); ++i) dir = base + "-" + std::to_string(i);
  return dir;
}

// GCC's OpenMP programs need libgomp, which has no OMPT; libomp implements GOMP's entry points,
// so a folder with libgomp.so.1 -> libomp.so.5 first on LD_LIBRARY_PATH makes them record.
bool prepare_gcc_program(const ElfInfo& elf, const std::string& dir, const std::string& program,
                         std::vector<std::string>* env) {
  if (elf.imports_symbol("omp_fulfill_event")) {
    std::fprintf(stderr,
                 "tasklens: %s was built by GCC (libgomp) and uses omp_fulfill_event (detach), "
                 "which LLVM's libomp does not provide for GCC programs: it cannot be recorded. "
                 "Rebuild it with clang -fopenmp.\n",
                 program.c_str());
    return false;
  }
  std::string libomp = find_libomp();
  if (libomp.empty()) {
    std::fprintf(stderr,
                 "tasklens: %s was built by GCC (libgomp, no OMPT) and LLVM's libomp was not "
                 "found to run it on; install libomp-14-dev or rebuild with clang -fopenmp.\n",
                 program.c_str());
    return false;
  }
  fs::path shim = fs::path(dir) / ".libgomp-on-libomp";
  std::error_code ec;
  fs::create_directories(shim, ec);
  fs::remove(shim / "libgomp.so.1", ec);
  fs::create_symlink(libomp, shim / "libgomp.so.1", ec);
  if (ec) {
    std::fprintf(stderr, "tasklens: cannot create %s: %s\n", (shim / "libgomp.so.1").c_str(),
                 ec.message().c_str());
    return false;
  }
  const char* old = std::getenv("LD_LIBRARY_PATH");
  env->push_back("LD_LIBRARY_PATH=" + fs::absolute(shim).string() +
                 (old && *old ? std::string(":") + old : ""));
  return true;
}

}  // namespace

int run_program(const RunOptions& o, const RunSteps& steps) {
  if (o.command.empty()) {
    std::fprintf(stderr, "tasklens run: no program given (usage: tasklens run [options] -- "
                         "./app args...)\n");
    return 2;
  }
  // An inherited TASKLENS_BUFFER_MB the recorder could not use: refused before the program runs.
  if (const char* mb = std::getenv("TASKLENS_BUFFER_MB"); o.buffer_mb == 0 && mb && *mb) {
    long v;
    if (!recorder::parse_buffer_mb(mb, &v)) {
      std::fprintf(stderr, "tasklens run: TASKLENS_BUFFER_MB=%s: not a whole number of MiB from "
                   "1 to %ld (unset it, or give --buffer-mb)\n", mb, recorder::kMaxBufferMb);
      return kToolFailed;
    }
  }
  std::string program, error;
  if (!resolve_program(o.command[0], &program, &error)) {
    std::fprintf(stderr, "tasklens run: %s\n", error.c_str());
    return error.find(": not executable") != std::string::npos ||
                   error.find(": is a directory") != std::string::npos
               ? kNotExecutable
               : kNotFound;
  }
  std::string recorder = find_recorder_library();
  if (recorder.empty()) {
    std::fprintf(stderr, "tasklens run: cannot find libtasklens.so next to %s (looked in %s)\n",
                 self_executable().c_str(), recorder_search_path().c_str());
    return kToolFailed;
  }

  // The user's own OpenMP tool settings: honoured, and said what was done with them.
  if (const char* tool = std::getenv("OMP_TOOL"); tool && std::string(tool) == "disabled") {
    std::fprintf(stderr, "tasklens run: OMP_TOOL=disabled is set in the environment: it tells the "
                         "OpenMP runtime to load no tool, so nothing could be recorded; unset it "
                         "to record (the program was not run)\n");
    return kToolFailed;
  }
  std::string tool_libraries = recorder;
  if (const char* user = std::getenv("OMP_TOOL_LIBRARIES"); user && *user) {
    // The runtime starts the first library of the list whose ompt_start_tool accepts: the
    // recorder, so the user's tool is kept in the list but not started in this run.
    tool_libraries += std::string(":") + user;
    if (!o.quiet) {
      std::fprintf(stderr, "tasklens: OMP_TOOL_LIBRARIES=%s is set: the recorder goes first and "
                           "the OpenMP runtime starts one tool only, so that one does not run "
                           "while tasklens records\n", user);
    }
  }

  // Under an MPI launcher every rank runs this command: they share the directory, each rank
  // records into its own folder of it (docs/MPI.md).
  format::MpiPlace mpi = format::mpi_place_from_env();
  std::string top = o.output.empty()
                        ? (mpi.is_rank() ? steps.mpi_default_dir(program) : default_output_dir(program))
                        : o.output;
  if (top.empty()) {
    std::fprintf(stderr, "tasklens run: rank %ld of an MPI run: give -o DIR, the directory all "
                 "ranks share (the launcher names no job to derive it from)\n", mpi.rank);
    return kToolFailed;
  }
  RunOutput output;
  if (mpi.is_rank()) {
    std::vector<std::string> args = o.command;
    args[0] = program;
    if (!steps.claim_mpi_rank(top, mpi.rank, mpi.size, o.force, args, &output, &error)) {
      std::fprintf(stderr, "tasklens run: rank %ld: %s\n", mpi.rank, error.c_str());
      return kToolFailed;
    }
  } else if (!claim_run_output(top, o.force, &output, &error)) {
    std::fprintf(stderr, "tasklens run: %s\n", error.c_str());
    return kToolFailed;
  }
  const std::string& dir = output.dir;  // this process's experiment: DIR, or DIR/rank-r
  // The program inherits the locked directory: the recorder writes through this descriptor.
  fcntl(output.fd, F_SETFD, 0);

  std::vector<std::string> env = {
      "OMP_TOOL=enabled",
      "OMP_TOOL_LIBRARIES=" + tool_libraries,
      "TASKLENS_OUTPUT=" + fs::absolute(dir).string(),
      "TASKLENS_OUTPUT_FD=" + std::to_string(output.fd),
  };
  if (o.threads > 0) env.push_back("OMP_NUM_THREADS=" + std::to_string(o.threads));
  if (o.buffer_mb > 0) env.push_back("TASKLENS_BUFFER_MB=" + std::to_string(o.buffer_mb));
  if (!o.overflow.empty()) env.push_back("TASKLENS_OVERFLOW=" + o.overflow);
  if (!o.mode.empty()) env.push_back("TASKLENS_MODE=" + o.mode);
  if (!o.counters.empty()) env.push_back("TASKLENS_COUNTERS=" + o.counters);

  ElfInfo elf = read_elf_info(program);
  bool gcc_program = elf.needs("libgomp.so.1");
  if (gcc_program) {
    if (!prepare_gcc_program(elf, dir, program, &env)) {
      remove_unused_output(output);
      return kToolFailed;
    }
    if (!o.quiet) {
      std::fprintf(stderr, "tasklens: %s uses GCC's libgomp: running it on LLVM's libomp\n",
                   program.c_str());
    }
  }

  // A program that calls MPI: its MPI calls are recorded by the PMPI library (docs/MPI.md).
  if (elf.imports_symbol("MPI_Init") || elf.imports_symbol("MPI_Init_thread")) {
    std::string pmpi = find_mpi_library();
    if (pmpi.empty()) {
      if (!o.quiet && mpi.rank <= 0) {
        std::fprintf(stderr, "tasklens: %s calls MPI but this tasklens was built without MPI: "
                     "its MPI calls are not recorded\n", program.c_str());
      }
    } else {
      const char* old = std::getenv("LD_PRELOAD");
      env.push_back("LD_PRELOAD=" + pmpi + (old && *old ? std::string(":") + old : ""));
    }
  }

  std::vector<std::string> argv = o.command;
  argv[0] = program;
  // The run's time origin: the recorder takes it when it agrees with the program's own start
  // time, which /proc gives to 10 ms only (docs/RECORDER.md).
  timespec spawn{};
  clock_gettime(CLOCK_MONOTONIC, &spawn);
  env.push_back("TASKLENS_SPAWN_NS=" +
                std::to_string(uint64_t(spawn.tv_sec) * 1000000000ull + uint64_t(spawn.tv_nsec)));
  // The command line as given, for the metadata: the program may rewrite its argv in place
  // before the recorder reads /proc/self/cmdline (see capture_cmdline in the recorder).
  std::string given;
  bool plain = true;
  for (size_t i = 0; i < argv.size(); ++i) {
    plain &= argv[i].find('\x1f') == std::string::npos;
    given += (i ? "\x1f" : "") + argv[i];
  }
  if (plain) env.push_back("TASKLENS_ARGS=" + given);
  ChildExit child = run_child(argv, env);
  if (!child.started) {
    std::fprintf(stderr, "tasklens run: %s\n", child.error.c_str());
    remove_unused_output(output);
    return kToolFailed;
  }
  int status = child.signaled ? 128 + child.code : child.code;

  if (!fs::exists(fs::path(dir) / "experiment.json") && descendant_experiments(dir).empty()) {
    std::string why =
        elf.is_elf && !elf.is_dynamic
            ? "it is statically linked, so the OpenMP runtime cannot load the tool"
        : elf.is_elf && !gcc_program && !elf.needs("libomp.so.5") && !elf.needs("libomp.so") &&
                !elf.needs("libiomp5.so")
            ? "no OpenMP runtime was loaded (the program does not link one, or loads one in a way "
              "tasklens cannot see)"
            : "the OpenMP runtime did not load the tool (no OpenMP construct ran, or the tool "
              "was refused: see the lines above)";
    std::fprintf(stderr, "tasklens run: nothing was recorded from %s: %s; %s\n", program.c_str(),
                 why.c_str(), output.created ? "nothing was left behind" : "the directory is left as it was");
    remove_unused_output(output);
    return status != 0 ? status : kToolFailed;
  }
  if (!o.quiet) steps.summarize(output, o.command, child);
  return status;
}


}  // namespace tasklens::cli
