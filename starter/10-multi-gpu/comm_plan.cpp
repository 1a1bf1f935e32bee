// Lab 10 step 2: the communication plan, built once from every rank's halo.
#include "core/kit_error.hpp"
#include "dist_spmv.hpp"

namespace kit::dist {

CommPlan build_comm_plan(const std::vector<std::vector<index_t>>& halos, const std::vector<index_t>& col_begin,
                         int rank) {
    CommPlan plan;
    plan.recv_offsets.assign(1, 0);
    plan.send_offsets.assign(1, 0);
    // TODO(10-multi-gpu step 2): receive runs of the own halo grouped by owner; send what other halos hold of ours
    kit::todo("10-multi-gpu", 2, "build_comm_plan: receive peers and counts, send peers and send_idx");
    return plan;
}

}  // namespace kit::dist
