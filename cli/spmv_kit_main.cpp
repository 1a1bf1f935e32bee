// spmv-kit: the kit's command-line tool. Its own subcommands are info, run, table, gen and list;
// the labs add theirs (a profiler, a calibration) through the registry, so this file names no lab.
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <new>

#include "commands.hpp"
#include "core/kit_error.hpp"
#include "io/memory_budget.hpp"
#include "registry/variants.hpp"

namespace {

const char* kHelp =
    "usage: spmv-kit COMMAND [options]    (each command has --help)\n\n"
    "  info FILE          size, nonzeros, row lengths, diagonals, ELL/DIA/BCSR fill\n"
    "  run FILE --format F [--impl reference|starter] [--backend cpu|cuda|opencl] [--precision float|double]\n"
    "                     run one variant, check it against the oracle, report GFLOP/s\n"
    "  table FILE...      every variant on every available backend, one table ('make run')\n"
    "  gen KIND ...       write a generated matrix (rdb, stencil2d, stencil3d, radius, powerlaw, ...)\n"
    "  list               the registered variants\n"
    "Any command takes --max-memory SIZE (512M, 4G): allocations sized by what a file declares are\n"
    "checked against it (default: the machine's memory, cgroup and ulimit) and refused with the figures.\n";

using Command = std::function<int(const std::vector<std::string>&)>;

/// The kit's subcommands, then every lab tool of the registry under the name it registered.
std::map<std::string, Command> all_commands() {
    std::map<std::string, Command> commands = {
        {"info", kit::cli::cmd_info}, {"run", kit::cli::cmd_run},   {"table", kit::cli::cmd_table},
        {"gen", kit::cli::cmd_gen},   {"list", kit::cli::cmd_list},
    };
    for (const kit::LabTool& t : kit::registry().tools()) commands.emplace(t.name, t.run);
    return commands;
}

void print_help(std::ostream& out) {
    out << kHelp;
    for (const kit::LabTool& t : kit::registry().tools()) out << "  " << t.usage << "  (lab " << t.lab << ")\n";
}

/// Takes `--max-memory SIZE` (or `--max-memory=SIZE`) out of the arguments, for every command.
std::vector<std::string> take_max_memory(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    for (std::size_t k = 1; k < args.size(); ++k) {
        const bool joined = args[k].rfind("--max-memory=", 0) == 0;
        if (args[k] != "--max-memory" && !joined) continue;
        if (!joined && k + 1 == args.size()) throw kit::Error("--max-memory needs a size, such as 4G");
        kit::set_memory_limit(kit::parse_memory_size(joined ? args[k].substr(13) : args[k + 1]));
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(k),
                   args.begin() + static_cast<std::ptrdiff_t>(k + (joined ? 1 : 2)));
        --k;
    }
    return args;
}

/// Runs the subcommand argv[1] on the rest; returns its exit status.
int run(int argc_in, char** argv_in) {
    const std::vector<std::string> args = take_max_memory(argc_in, argv_in);
    std::vector<char*> pointers;
    for (const std::string& a : args) pointers.push_back(const_cast<char*>(a.c_str()));
    const int argc = static_cast<int>(pointers.size());
    char** argv = pointers.data();
    const std::map<std::string, Command> commands = all_commands();
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
        std::string(argv[1]) == "help") {
        print_help(std::cout);
        return argc < 2 ? 2 : 0;
    }
    const auto it = commands.find(argv[1]);
    if (it == commands.end()) {
        std::cerr << "spmv-kit: unknown command '" << argv[1] << "'\n";
        print_help(std::cerr);
        return 2;
    }
    return it->second(std::vector<std::string>(argv + 2, argv + argc));
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const kit::TodoError& e) {  // a step still to write: "your code is not done", not a misuse
        std::cerr << "TODO: " << e.what() << "\n";
        return 1;
    } catch (const kit::Error& e) {
        std::cerr << e.what() << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "spmv-kit: out of memory (the tool's allocation, under the " +
                         kit::format_bytes(static_cast<double>(kit::memory_budget())) + " this process may use " +
                         kit::budget_source() + "); try a smaller matrix, or a machine with more memory\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "spmv-kit: unexpected error: " << e.what() << "\n";
        return 3;
    }
}
