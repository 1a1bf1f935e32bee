// Lab 05: the tuner's fixed parts (sampling hash, profile lookup, reports). The student
// writes estimate_fill and choose_block in bcsr_tuner.cpp.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "bcsr_tuner.hpp"
#include "kit_error.hpp"

#ifndef KIT_MATRICES_DIR
#error "KIT_MATRICES_DIR must be defined by the build (the matrices/ folder)"
#endif

namespace kit::bcsr {
namespace {

/// splitmix64: a fixed, well-mixed 64-bit hash, identical on every compiler and library
/// (std::uniform_real_distribution is not).
std::uint64_t mix(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

std::string default_profile_path() {
    const std::string matrices = KIT_MATRICES_DIR;  // <repo>/matrices
    return matrices.substr(0, matrices.find_last_of('/')) + "/labs/05-bcsr/profile_default.txt";
}

bool is_placeholder(const BcsrProfile& p) { return p.device.find("placeholder") != std::string::npos; }

/// The profile's file name as notes print it: relative to the kit when it lies inside it, so
/// results and logs never carry the path of the machine they were made on.
std::string shown_source(const BcsrProfile& p) {
    if (p.source.empty()) return "an in-memory profile";
    const std::string matrices = KIT_MATRICES_DIR;
    const std::string root = matrices.substr(0, matrices.find_last_of('/') + 1);  // <repo>/
    return p.source.compare(0, root.size(), root) == 0 ? p.source.substr(root.size()) : p.source;
}

}  // namespace

bool in_sample(index_t block_row, double sigma) {
    if (sigma >= 1.0) return true;
    // The top 53 bits as a uniform double in [0, 1).
    const double u = static_cast<double>(mix(static_cast<std::uint64_t>(block_row)) >> 11) * 0x1.0p-53;
    return u < sigma;
}

const BcsrProfile& active_profile() {
    static std::map<std::string, BcsrProfile> cache;
    const char* env = std::getenv("KIT_BCSR_PROFILE");
    const std::string path = env && *env ? env : default_profile_path();
    auto it = cache.find(path);
    if (it == cache.end()) it = cache.emplace(path, BcsrProfile::read(path)).first;
    return it->second;
}

std::string describe_choice(const TunerChoice& choice, const BcsrProfile& profile) {
    std::ostringstream s;
    s.precision(3);
    s << "block " << choice.best.r << "x" << choice.best.c << " chosen by the tuner (est. fill " << std::fixed
      << choice.best.fill << " at sigma " << std::defaultfloat << choice.sigma << ", estimate " << std::fixed
      << choice.best.estimate << " GFLOP/s from " << shown_source(profile)
      << (is_placeholder(profile) ? ", a PLACEHOLDER profile: run 'spmv-kit tune-profile' on your GPU" : "") << ")";
    return s.str();
}

std::string format_choice(const TunerChoice& choice, const BcsrProfile& profile) {
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "tuner      profile %s (%s), sigma %g\n", shown_source(profile).c_str(),
                  profile.device.empty() ? "device not recorded" : profile.device.c_str(), choice.sigma);
    out += line;
    out += "tuner      r x c   est. fill   stored (nz_E)   nearest nz_d   P_dense GFLOP/s   estimate GFLOP/s\n";
    for (const BlockEstimate& e : choice.shapes) {
        std::snprintf(line, sizeof line, "tuner      %d x %d   %9.3f   %13.0f   %12lld   %15.3f   %16.3f%s\n", e.r, e.c,
                      e.fill, e.stored, static_cast<long long>(e.profile_nnz), e.dense_gflops, e.estimate,
                      e.r == choice.best.r && e.c == choice.best.c ? "   <- pick" : "");
        out += line;
    }
    if (is_placeholder(profile))
        out += "tuner      note: this profile holds placeholder figures, not measurements: run "
               "'spmv-kit tune-profile --out FILE' on the GPU and set KIT_BCSR_PROFILE=FILE\n";
    return out;
}

BlockPick pick_block(const CooMatrix& A, const std::string& variant, const RunOptions& opt) {
    BlockPick pick;
    if (opt.tunable("block_r") > 0 && opt.tunable("block_c") > 0) {
        pick.r = opt.tunable("block_r");
        pick.c = opt.tunable("block_c");
        pick.note = "block " + std::to_string(pick.r) + "x" + std::to_string(pick.c) + " (given)";
        return pick;
    }
    const BcsrProfile& profile = active_profile();
    const TunerChoice choice = choose_block(A, profile, variant, opt.precision);
    pick.r = choice.best.r;
    pick.c = choice.best.c;
    pick.note = describe_choice(choice, profile);
    pick.details = format_choice(choice, profile);
    return pick;
}

std::string describe_fill(double fill, count_t blocks, int r, int c) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "actual fill %.3f (%lld blocks of %dx%d)", fill, static_cast<long long>(blocks), r, c);
    return buf;
}

}  // namespace kit::bcsr
