#include "bcsr_profile.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "core/kit_error.hpp"

namespace kit {

std::string to_string(PanelLayout l) { return l == PanelLayout::band ? "band" : "scatter"; }

BcsrProfile BcsrProfile::read(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw InputError(path, 0, "cannot open the BCSR profile (write one with 'spmv-kit tune-profile --out FILE')");
    BcsrProfile p = parse(in, path);
    p.source = path;
    return p;
}

namespace {

/// Reads the fields every record starts with, VARIANT PRECISION R C NNZ, and checks them.
bool read_head(std::istringstream& fields, ProfileRecord& e, const std::string& name, long long line_no) {
    std::string precision;
    if (!(fields >> e.variant >> precision >> e.r >> e.c >> e.nnz)) return false;
    try {
        e.precision = parse_precision(precision);
    } catch (const Error& err) {
        throw InputError(name, line_no, err.what());
    }
    if (e.r < 1 || e.r > 4 || e.c < 1 || e.c > 4) throw InputError(name, line_no, "block size must be R, C in 1..4");
    return true;
}

/// True when the record has no field left over.
bool at_end(std::istringstream& fields) {
    std::string extra;
    return !(fields >> extra);
}

bool valid_gflops(double g) { return g > 0 && std::isfinite(g); }

/// Writes the fields read_head reads: KEYWORD VARIANT PRECISION R C NNZ.
std::ostream& write_head(std::ostream& out, const char* keyword, const ProfileRecord& e) {
    return out << keyword << " " << e.variant << " " << to_string(e.precision) << " " << e.r << " " << e.c << " "
               << e.nnz;
}

}  // namespace

BcsrProfile BcsrProfile::parse(std::istream& in, const std::string& name) {
    BcsrProfile p;
    std::string line;
    long long line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        line = line.substr(0, line.find('#'));
        std::istringstream fields(line);
        std::string keyword;
        if (!(fields >> keyword)) continue;
        if (keyword == "device") {
            std::getline(fields >> std::ws, p.device);
        } else if (keyword == "panel") {
            PanelEntry e;
            std::string layout;
            if (!read_head(fields, e, name, line_no) || !(fields >> e.bpr >> layout >> e.gflops) || !at_end(fields))
                throw InputError(name, line_no,
                                 "a panel record is 'panel VARIANT PRECISION R C NNZ BPR LAYOUT GFLOPS'");
            if (layout != "band" && layout != "scatter")
                throw InputError(name, line_no, "panel LAYOUT must be 'band' or 'scatter', got '" + layout + "'");
            e.layout = layout == "band" ? PanelLayout::band : PanelLayout::scatter;
            if (e.nnz < 1 || e.bpr < 1 || !valid_gflops(e.gflops))
                throw InputError(name, line_no, "NNZ and BPR must be positive and GFLOPS a positive number");
            p.panels.push_back(e);
        } else if (keyword == "chain") {
            ChainEntry e;
            if (!read_head(fields, e, name, line_no) || !(fields >> e.blocks >> e.gflops) || !at_end(fields))
                throw InputError(name, line_no, "a chain record is 'chain VARIANT PRECISION R C NNZ BLOCKS GFLOPS'");
            if (e.nnz < 1 || e.blocks < 1 || !valid_gflops(e.gflops))
                throw InputError(name, line_no, "NNZ and BLOCKS must be positive and GFLOPS a positive number");
            p.chains.push_back(e);
        } else if (keyword == "dense") {
            ProfileEntry e;
            if (!read_head(fields, e, name, line_no) || !(fields >> e.gflops) || !at_end(fields))
                throw InputError(name, line_no, "a dense record is 'dense VARIANT PRECISION R C NNZ GFLOPS'");
            if (e.nnz < 1 || !valid_gflops(e.gflops))
                throw InputError(name, line_no, "NNZ must be positive and GFLOPS a positive number");
            p.entries.push_back(e);
        } else {
            throw InputError(name, line_no,
                             "unknown record '" + keyword + "' (expected 'device', 'dense', 'panel' or 'chain')");
        }
    }
    return p;
}

void BcsrProfile::write(std::ostream& out, const std::string& comment) const {
    out << "# BCSR performance profile of dense matrices (GOSpMV offline step), read by the BCSR autotuner.\n"
        << "# Records: 'device NAME', 'dense VARIANT PRECISION R C NNZ GFLOPS' and\n"
        << "# 'panel VARIANT PRECISION R C NNZ BPR band|scatter GFLOPS' and 'chain VARIANT PRECISION R C NNZ BLOCKS "
           "GFLOPS'\n"
        << "# (see labs/05-bcsr/bcsr_profile.hpp).\n";
    std::istringstream lines(comment);
    for (std::string l; std::getline(lines, l);) out << "# " << l << "\n";
    if (!device.empty()) out << "device " << device << "\n";
    for (const ProfileEntry& e : entries)
        write_head(out, "dense", e) << " " << std::setprecision(6) << e.gflops << "\n";
    for (const PanelEntry& e : panels)
        write_head(out, "panel", e) << " " << e.bpr << " " << to_string(e.layout) << " " << std::setprecision(6)
                                    << e.gflops << "\n";
    for (const ChainEntry& e : chains)
        write_head(out, "chain", e) << " " << e.blocks << " " << std::setprecision(6) << e.gflops << "\n";
}

const ProfileEntry* BcsrProfile::nearest(const std::string& variant, Precision p, int r, int c, double nnz) const {
    const ProfileEntry* best = nullptr;
    double best_distance = 0;
    const double target = std::log(nnz > 1 ? nnz : 1.0);
    for (const ProfileEntry& e : entries) {
        if (!e.matches(variant, p, r, c)) continue;
        const double distance = std::abs(std::log(static_cast<double>(e.nnz)) - target);
        // Sizes symmetric around nnz on a log scale differ in the last bits: call those a tie.
        const bool tie = best && std::abs(distance - best_distance) <= 1e-12;
        if (!best || (!tie && distance < best_distance) || (tie && e.nnz < best->nnz)) {
            best = &e;
            best_distance = distance;
        }
    }
    return best;
}

std::vector<PanelEntry> BcsrProfile::panels_of(const std::string& variant, Precision p, int r, int c,
                                               PanelLayout layout) const {
    std::vector<PanelEntry> out;
    for (const PanelEntry& e : panels)
        if (e.matches(variant, p, r, c) && e.layout == layout) out.push_back(e);
    std::stable_sort(out.begin(), out.end(), [](const PanelEntry& a, const PanelEntry& b) { return a.bpr < b.bpr; });
    return out;
}

const ChainEntry* BcsrProfile::chain_of(const std::string& variant, Precision p, int r, int c) const {
    const ChainEntry* best = nullptr;
    for (const ChainEntry& e : chains)
        if (e.matches(variant, p, r, c) && (!best || e.blocks > best->blocks)) best = &e;
    return best;
}

bool BcsrProfile::covers(const std::string& variant, Precision p) const {
    for (const ProfileEntry& e : entries)
        if (e.variant == variant && e.precision == p) return true;
    return false;
}

}  // namespace kit
