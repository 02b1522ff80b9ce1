package ship

import "github.com/aayudha/aayu/proof"

var proofReport = proof.Report{}
