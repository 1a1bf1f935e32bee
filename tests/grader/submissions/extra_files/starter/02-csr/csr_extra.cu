// Adversarial submission: an extra source file next to the real ones. It must never be
// compiled: only the files the lab manifest names are taken from a submission.
#error "an extra file from the submission was compiled"
