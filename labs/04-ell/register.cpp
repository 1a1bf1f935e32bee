// Lab 04 variants: "ell" and "hyb" on the CPU; "ell" and "hyb" on CUDA (register_cuda.cu).
#include <sstream>

#include "bytes_model.hpp"
#include "ell_kernels.hpp"
#include "variants.hpp"

namespace kit {

void register_lab_04_ell_cuda(Registry& r);

// Shared with register_cuda.cu; a namespace of their own keeps them apart from other labs' helpers.
namespace lab04 {

template <class T>
count_t ell_bytes_of(const Ell<T>& m, count_t value_bytes) {
    return ell_bytes(m.rows, m.cols, m.width, m.pitch, value_bytes);
}
template <class T>
count_t hyb_bytes_of(const Hyb<T>& m, count_t value_bytes) {
    return hyb_bytes(m.rows, m.cols, m.ell.width, m.ell.pitch, static_cast<count_t>(m.coo.vals.size()), value_bytes);
}
count_t bytes_of(const Ell<float>& m, count_t vb) { return ell_bytes_of(m, vb); }
count_t bytes_of(const Ell<double>& m, count_t vb) { return ell_bytes_of(m, vb); }
count_t bytes_of(const Hyb<float>& m, count_t vb) { return hyb_bytes_of(m, vb); }
count_t bytes_of(const Hyb<double>& m, count_t vb) { return hyb_bytes_of(m, vb); }

// Adds the layout figures to a run's result, so `spmv-kit run` shows what the format cost.
RunFunction with_ell_note(RunFunction run) {
    return [run](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                 const RunOptions& opt) {
        RunResult out = run(A, x, y, opt);  // a refused conversion throws here, before the note
        const Ell<double> e = Ell<double>::from_coo(A);
        std::ostringstream note;
        note << "ELL: width " << e.width << ", pitch " << e.pitch << ", fill " << e.fill()
             << " (stored slots / nonzeros)";
        out.note = note.str();
        return out;
    };
}

RunFunction with_hyb_note(RunFunction run) {
    return [run](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                 const RunOptions& opt) {
        RunResult out = run(A, x, y, opt);
        const Hyb<double> h = Hyb<double>::from_coo(A);
        std::ostringstream note;
        note << "HYB: K = " << h.ell.width << " (ELL part " << h.ell.nnz << " entries in " << h.ell.vals.size()
             << " slots), COO part " << h.coo.vals.size() << " entries, fill " << h.fill();
        out.note = note.str();
        return out;
    };
}

}  // namespace lab04

void register_lab_04_ell(Registry& r) {
    const auto bytes = [](const auto& m, count_t vb) { return lab04::bytes_of(m, vb); };
    r.add({"ell", Backend::cpu, "04-ell", 1, "row by row over the row's width slots, skipping padding",
           lab04::with_ell_note(cpu_variant<Ell>([](auto A, auto x, auto y) { cpu::ell_spmv(A, x, y); }, bytes))});
    r.add({"hyb", Backend::cpu, "04-ell", 3, "the ELL part, then one loop over the COO part",
           lab04::with_hyb_note(cpu_variant<Hyb>([](auto A, auto x, auto y) { cpu::hyb_spmv(A, x, y); }, bytes))});
#if KIT_HAVE_CUDA
    register_lab_04_ell_cuda(r);
#endif
}

}  // namespace kit
