// spmv-kit: the kit's command-line tool. Subcommands: info, run, table, gen, list, tune-profile,
// calibrate.
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <new>

#include "commands.hpp"
#include "core/kit_error.hpp"

namespace {

const char* kHelp =
    "usage: spmv-kit COMMAND [options]    (each command has --help)\n\n"
    "  info FILE          size, nonzeros, row lengths, diagonals, ELL/DIA/BCSR fill\n"
    "  run FILE --format F [--impl reference|starter] [--backend cpu|cuda|opencl] [--precision float|double]\n"
    "                     run one variant, check it against the oracle, report GFLOP/s\n"
    "  table FILE...      every variant on every available backend, one table ('make run')\n"
    "  gen KIND ...       write a generated matrix (rdb, stencil2d, stencil3d, radius, powerlaw, ...)\n"
    "  list               the registered variants\n"
    "  tune-profile --out FILE   time dense BCSR for every r x c and size: the profile of the\n"
    "                     BCSR autotuner (GPU; see lab 05)\n"
    "  calibrate [--out FILE]    measure the device parameters of lab 08's format model (GPU)\n";

}  // namespace

int main(int argc, char** argv) {
    const std::map<std::string, std::function<int(const std::vector<std::string>&)>> commands = {
        {"info", kit::cli::cmd_info}, {"run", kit::cli::cmd_run}, {"table", kit::cli::cmd_table},
        {"gen", kit::cli::cmd_gen},   {"list", kit::cli::cmd_list},
        {"tune-profile", kit::cli::cmd_tune_profile}, {"calibrate", kit::cli::cmd_calibrate},
    };
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" || std::string(argv[1]) == "help") {
        std::cout << kHelp;
        return argc < 2 ? 2 : 0;
    }
    const auto it = commands.find(argv[1]);
    if (it == commands.end()) {
        std::cerr << "spmv-kit: unknown command '" << argv[1] << "'\n" << kHelp;
        return 2;
    }
    try {
        return it->second(std::vector<std::string>(argv + 2, argv + argc));
    } catch (const kit::Error& e) {
        std::cerr << e.what() << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "spmv-kit: out of memory; try a smaller matrix\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "spmv-kit: unexpected error: " << e.what() << "\n";
        return 3;
    }
}
