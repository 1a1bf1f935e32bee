// Lab 05: the tuner's fixed parts (sampling hash, the structure model, the joint pick, profile
// lookup, reports). The student writes estimate_fill and choose_block in bcsr_tuner.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "bcsr_tuner.hpp"
#include "bcsr_tunables.hpp"
#include "core/kit_error.hpp"

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

#ifndef KIT_BCSR_DEFAULT_PROFILE
#error "KIT_BCSR_DEFAULT_PROFILE must be defined by the build (labs/05-bcsr/profile_default.txt)"
#endif

std::string default_profile_path() { return KIT_BCSR_DEFAULT_PROFILE; }

/// What the time model needs to know of a kernel beyond its profile records.
struct KernelTraits {
    /// The longest block row's chain runs after the other block rows' work instead of beside
    /// it: bcsr-2kernel sums every row in a second launch that starts only when the first has
    /// written all partial sums, so its long row's sum cannot overlap kernel 1.
    bool chain_follows_rows = false;
    /// Lanes that share one block row (0: none): bcsr-warp's 32 lanes take a block row's
    /// blocks 32 at a time, so 33 blocks cost two passes (block_row_time).
    int lanes = 0;
};

KernelTraits traits_of(const std::string& variant) {
    if (variant == "bcsr-2kernel") return {true, 0};
    if (variant == "bcsr-warp") return {false, kWarpSize};
    return {};
}

/// Work of one block row of b blocks, linear in b between the panels (see block_row_time).
double interpolated_work(const std::vector<PanelEntry>& panels, double b, double launch) {
    auto work = [launch](const PanelEntry& e) {
        const double nnz = static_cast<double>(e.nnz);
        return std::max(0.0, 2.0 * nnz / (e.gflops * 1e9) - launch) * e.r * e.c * e.bpr / nnz;
    };
    const PanelEntry& first = panels.front();
    const PanelEntry& last = panels.back();
    if (b <= first.bpr) return work(first);
    if (b >= last.bpr) return work(last) * b / last.bpr;
    for (std::size_t k = 1; k < panels.size(); ++k)
        if (b <= panels[k].bpr) {
            const double t0 = work(panels[k - 1]), t1 = work(panels[k]);
            const double w = (b - panels[k - 1].bpr) / static_cast<double>(panels[k].bpr - panels[k - 1].bpr);
            return t0 + w * (t1 - t0);
        }
    return work(last);  // not reached: b < last.bpr
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

/// The blocks of the block row with the most entries, found from row_ptr alone and counted
/// exactly. A chain only matters when one block row holds far more entries than the rest, and
/// then the one with the most entries is also the one with the most blocks, to within r*c.
/// `seen` (one entry per block column) is scratch whose values are all below the block-row count.
count_t longest_block_row_blocks(const CooMatrix& A, const std::vector<count_t>& row_ptr, int r, int c,
                                 std::vector<index_t>& seen) {
    const index_t block_rows = static_cast<index_t>((static_cast<count_t>(A.rows) + r - 1) / r);
    auto first_entry = [&](index_t ib) {
        return row_ptr[std::min<std::size_t>(static_cast<std::size_t>(ib) * r, static_cast<std::size_t>(A.rows))];
    };
    index_t longest = 0;
    count_t longest_entries = 0;
    for (index_t ib = 0; ib < block_rows; ++ib)
        if (const count_t entries = first_entry(ib + 1) - first_entry(ib); entries > longest_entries)
            longest = ib, longest_entries = entries;
    count_t blocks = 0;
    const index_t stamp_row = block_rows;  // a stamp no sampled block row used
    for (count_t k = first_entry(longest); longest_entries > 0 && k < first_entry(longest + 1); ++k) {
        const index_t bc = A.col_idx[k] / c;
        if (seen[bc] == stamp_row) continue;
        seen[bc] = stamp_row;
        ++blocks;
    }
    return blocks;
}

}  // namespace

bool in_sample(index_t block_row, double sigma) {
    if (sigma >= 1.0) return true;
    // The top 53 bits as a uniform double in [0, 1).
    const double u = static_cast<double>(mix(static_cast<std::uint64_t>(block_row)) >> 11) * 0x1.0p-53;
    return u < sigma;
}

BlockRowSample sample_block_rows(const CooMatrix& A, const std::vector<count_t>& row_ptr, int r, int c, double sigma,
                                 int value_bytes) {
    if (r < 1 || c < 1) throw Error("sample_block_rows: block size must be positive");
    if (value_bytes != 4 && value_bytes != 8) throw Error("sample_block_rows: value_bytes must be 4 or 8");
    if (row_ptr.size() != static_cast<std::size_t>(A.rows) + 1)
        throw Error("sample_block_rows: row_ptr must have rows + 1 entries (use hub_row_ptr)");
    const index_t block_rows = static_cast<index_t>((static_cast<count_t>(A.rows) + r - 1) / r);
    const int per_sector = 32 / value_bytes;  // x values in one 32-byte sector
    const index_t window = (4 + r - 1) / r;   // block rows covering the 4 rows above a block row
    auto first_entry = [&](index_t ib) {
        return row_ptr[std::min<std::size_t>(static_cast<std::size_t>(ib) * r, static_cast<std::size_t>(A.rows))];
    };
    std::vector<index_t> seen((static_cast<std::size_t>(A.cols) + c - 1) / c, -1);
    // stamp[s] = the sampled block row for which sector s of x counts as already read.
    std::vector<index_t> stamp(static_cast<std::size_t>(A.cols) / per_sector + 1, -1);
    auto sectors_of = [&](index_t bc, index_t& s0, index_t& s1) {
        const count_t first = static_cast<count_t>(bc) * c;
        const count_t last = std::min<count_t>(first + c, A.cols) - 1;
        s0 = static_cast<index_t>(first / per_sector);
        s1 = static_cast<index_t>(last / per_sector);
    };
    BlockRowSample out;
    for (index_t ib = 0; ib < block_rows; ++ib) {
        if (!in_sample(ib, sigma)) continue;
        index_t s0 = 0, s1 = 0;
        for (index_t wb = std::max<index_t>(0, ib - window); wb < ib; ++wb)
            for (count_t k = first_entry(wb); k < first_entry(wb + 1); ++k) {
                sectors_of(A.col_idx[k] / c, s0, s1);
                for (index_t s = s0; s <= s1; ++s) stamp[s] = ib;
            }
        count_t blocks = 0;
        for (count_t k = first_entry(ib); k < first_entry(ib + 1); ++k) {
            const index_t bc = A.col_idx[k] / c;
            if (seen[bc] == ib) continue;
            seen[bc] = ib;
            ++blocks;
            sectors_of(bc, s0, s1);
            bool local = true;
            for (index_t s = s0; s <= s1; ++s) {
                local = local && stamp[s] == ib;
                stamp[s] = ib;
            }
            out.local_blocks += local;
        }
        ++out.rows_by_blocks[blocks];
        ++out.block_rows;
        out.blocks += blocks;
        out.entries += first_entry(ib + 1) - first_entry(ib);
    }
    if (out.entries == 0 && A.nnz() > 0 && sigma < 1.0) return sample_block_rows(A, row_ptr, r, c, 1.0, value_bytes);
    out.all_block_rows = block_rows;
    out.nnz = A.nnz();
    out.longest_blocks = longest_block_row_blocks(A, row_ptr, r, c, seen);
    return out;
}

double launch_seconds(const BcsrProfile& profile, const std::string& variant, Precision p, int r, int c) {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const ProfileEntry& e : profile.entries) {
        if (!e.matches(variant, p, r, c)) continue;
        const double x = static_cast<double>(e.nnz), y = 2.0 * x / (e.gflops * 1e9);
        n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    const double spread = n * sxx - sx * sx;
    if (n < 2 || !(spread > 0)) return 0.0;
    const double slope = (n * sxy - sx * sy) / spread;
    return std::max(0.0, (sy - slope * sx) / n);
}

double block_row_time(const std::vector<PanelEntry>& panels, double b, double launch, int lanes) {
    if (panels.empty()) throw Error("block_row_time: no panel records to interpolate");
    if (lanes <= 0 || b <= lanes) return interpolated_work(panels, b, launch);
    // Past one pass, a block row takes ceil(b / lanes) passes. A pass costs a part alpha
    // whatever the lanes do (its latency) and the rest in proportion to the blocks; alpha
    // is what half the lanes already cost: w(lanes / 2) = (alpha + (1 - alpha) / 2) w(lanes).
    const double full = lanes * std::ceil(b / lanes);
    const double one_pass = interpolated_work(panels, lanes, launch);
    const double alpha =
        one_pass > 0 ? std::clamp(2 * interpolated_work(panels, lanes / 2.0, launch) / one_pass - 1, 0.0, 1.0) : 0.0;
    return interpolated_work(panels, full, launch) * (alpha + (1 - alpha) * b / full);
}

StructureModel structure_model(const BcsrProfile& profile, const std::string& variant, Precision p, int r, int c,
                               const BlockRowSample& sample) {
    StructureModel m;
    const std::vector<PanelEntry> band = profile.panels_of(variant, p, r, c, PanelLayout::band);
    const std::vector<PanelEntry> scatter = profile.panels_of(variant, p, r, c, PanelLayout::scatter);
    if ((band.empty() && scatter.empty()) || sample.blocks == 0 || sample.nnz == 0) return m;
    const double fill = sample.fill(r, c);
    const ProfileEntry* dense = profile.nearest(variant, p, r, c, fill * static_cast<double>(sample.nnz));
    if (!dense) return m;
    const double local = band.empty() ? 0.0 : scatter.empty() ? 1.0 : sample.locality();
    const KernelTraits traits = traits_of(variant);
    m.launch_seconds = launch_seconds(profile, variant, p, r, c);
    double sampled = 0;
    for (const auto& [b, rows] : sample.rows_by_blocks) {
        const double blocks = static_cast<double>(b);
        const double w_band = band.empty() ? 0.0 : block_row_time(band, blocks, m.launch_seconds, traits.lanes);
        const double w_scatter =
            scatter.empty() ? 0.0 : block_row_time(scatter, blocks, m.launch_seconds, traits.lanes);
        sampled += static_cast<double>(rows) * (local * w_band + (1 - local) * w_scatter);
    }
    m.rows_seconds = sampled * static_cast<double>(sample.all_block_rows) / static_cast<double>(sample.block_rows);
    if (const ChainEntry* chain = profile.chain_of(variant, p, r, c))
        m.chain_seconds = std::max(0.0, chain->seconds() - m.launch_seconds) *
                          static_cast<double>(sample.longest_blocks) / static_cast<double>(chain->blocks);
    m.seconds = m.launch_seconds + (traits.chain_follows_rows ? m.rows_seconds + m.chain_seconds
                                                              : std::max(m.rows_seconds, m.chain_seconds));
    if (!(m.seconds > 0)) return StructureModel{};
    m.used = true;
    m.gflops = 2.0 * static_cast<double>(sample.nnz) / m.seconds * 1e-9;
    m.factor = m.gflops / (dense->gflops / fill);
    return m;
}

double structure_factor(const CooMatrix& A, const std::vector<count_t>& row_ptr, const BcsrProfile& profile,
                        const std::string& variant, Precision p, int r, int c, double sigma) {
    if (profile.panels.empty()) return 1.0;  // a GOSpMV profile: no sample needed
    const BlockRowSample sample = sample_block_rows(A, row_ptr, r, c, sigma, value_bytes_of(p));
    return structure_model(profile, variant, p, r, c, sample).factor;
}

const BlockEstimate& TunerChoice::pick() const {
    const BlockEstimate* chosen = &best;
    for (const BlockEstimate& e : shapes)
        if (e.estimate >= (1 - kTieBand) * best.estimate && e.stored < chosen->stored) chosen = &e;
    return *chosen;
}

JointChoice choose_kernel_and_block(const CooMatrix& A, const BcsrProfile& profile,
                                    const std::vector<std::string>& variants, Precision p, double sigma) {
    JointChoice joint;
    for (const std::string& v : variants) {
        if (!profile.covers(v, p)) continue;
        TunerChoice choice = choose_block(A, profile, v, p, sigma);
        if (choice.shapes.empty()) continue;
        if (!joint.choices.empty() && choice.best.estimate > joint.choice().best.estimate)
            joint.best = joint.choices.size();
        joint.variants.push_back(v);
        joint.choices.push_back(std::move(choice));
    }
    if (joint.choices.empty()) {
        std::string names;
        for (const std::string& v : variants) names += (names.empty() ? "" : ", ") + v;
        throw Error("BCSR tuner: the profile " + profile.source + " rates none of the kernels " + names + " in " +
                    to_string(p) + "; run 'spmv-kit tune-profile' or name the kernel and block size");
    }
    return joint;
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
    const BlockEstimate& pick = choice.pick();
    s << "block " << pick.r << "x" << pick.c << " chosen by the tuner (est. fill " << std::fixed << pick.fill
      << " at sigma " << std::defaultfloat << choice.sigma << ", estimate " << std::fixed << pick.estimate
      << " GFLOP/s, structure factor " << pick.structure;
    if (&pick != &choice.best)
        s << ", within " << std::defaultfloat << 100 * kTieBand << "% of " << choice.best.r << "x" << choice.best.c
          << "'s " << std::fixed << choice.best.estimate << " and fewer values stored";
    s << " from " << shown_source(profile)
      << (is_placeholder(profile) ? ", a PLACEHOLDER profile: run 'spmv-kit tune-profile' on your GPU" : "") << ")";
    return s.str();
}

std::string format_choice(const TunerChoice& choice, const BcsrProfile& profile) {
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "tuner      profile %s (%s), sigma %g\n", shown_source(profile).c_str(),
                  profile.device.empty() ? "device not recorded" : profile.device.c_str(), choice.sigma);
    out += line;
    out +=
        "tuner      r x c   est. fill   stored (nz_E)   nearest nz_d   P_dense GFLOP/s   structure   estimate "
        "GFLOP/s\n";
    for (const BlockEstimate& e : choice.shapes) {
        std::snprintf(line, sizeof line, "tuner      %d x %d   %9.3f   %13.0f   %12lld   %15.3f   %9.3f   %16.3f%s\n",
                      e.r, e.c, e.fill, e.stored, static_cast<long long>(e.profile_nnz), e.dense_gflops, e.structure,
                      e.estimate, &e == &choice.pick() ? "   <- pick" : "");
        out += line;
    }
    if (profile.panels.empty())
        out +=
            "tuner      note: the profile has no panel records, so structure is 1 (GOSpMV's model): "
            "regenerate it with 'spmv-kit tune-profile'\n";
    if (is_placeholder(profile))
        out +=
            "tuner      note: this profile holds placeholder figures, not measurements: run "
            "'spmv-kit tune-profile --out FILE' on the GPU and set KIT_BCSR_PROFILE=FILE\n";
    return out;
}

std::string describe_model(const CooMatrix& A, const BcsrProfile& profile, const std::string& variant, Precision p,
                           int r, int c, double sigma) {
    const std::string shape = variant + " " + std::to_string(r) + "x" + std::to_string(c);
    const BlockRowSample sample = sample_block_rows(A, hub_row_ptr(A), r, c, sigma, value_bytes_of(p));
    const StructureModel m = structure_model(profile, variant, p, r, c, sample);
    if (!m.used)
        return "tuner      time model of " + shape + ": no panel records, so GOSpMV's P_dense / fill (structure 1)\n";
    const bool added = traits_of(variant).chain_follows_rows;
    char line[400];
    std::snprintf(line, sizeof line,
                  "tuner      time model of %s: t0 %.3f us + %s(block rows %.3f us, longest block row of %lld blocks "
                  "%.3f us) = %.3f us; 2 nnz / T = %.3f GFLOP/s\n",
                  shape.c_str(), m.launch_seconds * 1e6, added ? "sum" : "max", m.rows_seconds * 1e6,
                  static_cast<long long>(sample.longest_blocks), m.chain_seconds * 1e6, m.seconds * 1e6, m.gflops);
    return line;
}

BlockPick pick_block(const CooMatrix& A, const std::string& variant, const RunOptions& opt) {
    BlockPick pick;
    if (opt.tunable(kBlockRows) > 0 && opt.tunable(kBlockCols) > 0) {
        pick.r = opt.tunable(kBlockRows);
        pick.c = opt.tunable(kBlockCols);
        pick.note = "block " + std::to_string(pick.r) + "x" + std::to_string(pick.c) + " (given)";
        return pick;
    }
    const BcsrProfile& profile = active_profile();
    const TunerChoice choice = choose_block(A, profile, variant, opt.precision);
    pick.r = choice.pick().r;
    pick.c = choice.pick().c;
    pick.note = describe_choice(choice, profile);
    pick.details = format_choice(choice, profile) +
                   describe_model(A, profile, variant, opt.precision, pick.r, pick.c, choice.sigma);
    return pick;
}

KernelPick pick_kernel_and_block(const CooMatrix& A, const std::vector<std::string>& variants, const RunOptions& opt) {
    const BcsrProfile& profile = active_profile();
    const JointChoice joint = choose_kernel_and_block(A, profile, variants, opt.precision);
    KernelPick pick;
    const int r = opt.tunable(kBlockRows), c = opt.tunable(kBlockCols);
    if (r > 0 && c > 0) {
        double best = -1;
        for (std::size_t v = 0; v < joint.choices.size(); ++v)
            for (const BlockEstimate& e : joint.choices[v].shapes)
                if (e.r == r && e.c == c && e.estimate > best) best = e.estimate, pick.variant = joint.variants[v];
        if (pick.variant.empty())
            throw Error("bcsr-auto: the profile rates no kernel at block " + std::to_string(r) + "x" +
                        std::to_string(c));
        pick.block.r = r;
        pick.block.c = c;
        pick.block.note = "kernel " + pick.variant + " rated fastest at the given block " + std::to_string(r) + "x" +
                          std::to_string(c);
        return pick;
    }
    pick.variant = joint.variant();
    pick.block.r = joint.choice().pick().r;
    pick.block.c = joint.choice().pick().c;
    pick.block.note = "kernel " + pick.variant + " and " + describe_choice(joint.choice(), profile);
    for (std::size_t v = 0; v < joint.choices.size(); ++v) {
        char line[200];
        const BlockEstimate& shape = joint.choices[v].pick();
        std::snprintf(line, sizeof line, "tuner      kernel %s: pick %dx%d, estimate %.3f GFLOP/s%s\n",
                      joint.variants[v].c_str(), shape.r, shape.c, shape.estimate,
                      v == joint.best ? "   <- joint pick" : "");
        pick.block.details += format_choice(joint.choices[v], profile);
        pick.block.details +=
            describe_model(A, profile, joint.variants[v], opt.precision, shape.r, shape.c, joint.choices[v].sigma);
        pick.block.details += line;
    }
    return pick;
}

std::string describe_fill(double fill, count_t blocks, int r, int c) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "actual fill %.3f (%lld blocks of %dx%d)", fill, static_cast<long long>(blocks), r,
                  c);
    return buf;
}

}  // namespace kit::bcsr
