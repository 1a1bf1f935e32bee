// Lab 10 step 2: the communication plan, built once from every rank's halo.
#include "core/kit_error.hpp"
#include "dist_spmv.hpp"

namespace kit::dist {

CommPlan build_comm_plan(const std::vector<std::vector<index_t>>& halos, const std::vector<index_t>& col_begin,
                         int rank) {
    CommPlan plan;
    plan.recv_offsets.assign(1, 0);
    plan.send_offsets.assign(1, 0);
    // BEGIN SOLUTION(step 2: receive runs of the own halo grouped by owner; send what other halos hold of ours)
    // STARTER: kit::todo("10-multi-gpu", 2, "build_comm_plan: receive peers and counts, send peers and send_idx");
    const std::vector<index_t>& mine = halos.at(rank);
    for (std::size_t k = 0; k < mine.size(); ++k) {
        const int owner = owner_of(col_begin, mine[k]);
        if (plan.recv_peers.empty() || plan.recv_peers.back() != owner) {
            if (!plan.recv_peers.empty()) plan.recv_offsets.push_back(static_cast<index_t>(k));
            plan.recv_peers.push_back(owner);
        }
    }
    if (!plan.recv_peers.empty()) plan.recv_offsets.push_back(static_cast<index_t>(mine.size()));
    const index_t c0 = col_begin[rank], c1 = col_begin[rank + 1];
    for (int q = 0; q < static_cast<int>(halos.size()); ++q) {
        if (q == rank) continue;
        for (const index_t c : halos[q])
            if (c >= c0 && c < c1) plan.send_idx.push_back(c - c0);
        if (static_cast<std::size_t>(plan.send_offsets.back()) != plan.send_idx.size()) {
            plan.send_peers.push_back(q);
            plan.send_offsets.push_back(static_cast<index_t>(plan.send_idx.size()));
        }
    }
    // END SOLUTION
    return plan;
}

}  // namespace kit::dist
