package sandbox

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FaultSpec says which failures to inject and how often. Rates are
// probabilities per request between 0 and 1.
type FaultSpec struct {
	ServerError    float64       // 5xx: a 502 HTML page or a 503 JSON body
	Latency        time.Duration // added before every API request
	SecondaryLimit float64       // 403 with or without retry-after, or 429 with it
	Drop           float64       // the connection closed mid-body
	Seed           uint64        // fixes the sequence of faults (tests)
	// WriteLatency is added before every REST write (any method but GET
	// and HEAD), on top of Latency: a test that interrupts a write needs
	// the write slow, not the reads before it.
	WriteLatency time.Duration
}

// ParseFaults reads "5xx=0.1,latency=300ms,secondary-limit=0.05,drop=0.02"
// (also seed=N). An empty string gives no faults.
func ParseFaults(s string) (FaultSpec, error) {
	var f FaultSpec
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return FaultSpec{}, fmt.Errorf("fault %q needs a value, as in 5xx=0.1", part)
		}
		rate := func() (float64, error) {
			v, err := strconv.ParseFloat(val, 64)
			if err != nil || v < 0 || v > 1 {
				return 0, fmt.Errorf("fault %s=%s: the rate must be a number from 0 to 1", key, val)
			}
			return v, nil
		}
		var err error
		switch strings.ToLower(key) {
		case "5xx":
			f.ServerError, err = rate()
		case "secondary-limit":
			f.SecondaryLimit, err = rate()
		case "drop":
			f.Drop, err = rate()
		case "latency":
			f.Latency, err = time.ParseDuration(val)
			if err != nil || f.Latency < 0 {
				err = fmt.Errorf("fault latency=%s: give a duration such as 300ms", val)
			}
		case "seed":
			f.Seed, err = strconv.ParseUint(val, 10, 64)
			if err != nil {
				err = fmt.Errorf("fault seed=%s: give a whole number", val)
			}
		default:
			return FaultSpec{}, fmt.Errorf("unknown fault %q (known: 5xx, latency, secondary-limit, drop, seed)", key)
		}
		if err != nil {
			return FaultSpec{}, err
		}
	}
	return f, nil
}

// Fault is one failure a FaultPlan puts on a particular request.
type Fault int

// The faults a plan can pick, each in the shape GitHub shows it.
const (
	NoFault              Fault = iota // serve the request normally
	FaultBadGateway                   // 502 with GitHub's HTML page
	FaultUnavailable                  // 503 with a JSON body
	FaultSecondaryRetry               // 403 secondary limit with retry-after: 60
	FaultSecondaryNoWait              // 403 secondary limit without retry-after
	FaultSecondary429                 // 429 secondary limit with retry-after: 30
	FaultDrop                         // the connection closed mid-body
)

// FaultPlan picks a fault for one API request, for tests that need a
// failure on exactly that request. It is called for every REST request,
// one at a time, before the random faults of FaultSpec are drawn; NoFault
// leaves the request to them.
type FaultPlan func(r *http.Request) Fault

type faultKind int

const (
	faultNone faultKind = iota
	faultServerError
	faultSecondary
	faultDrop
)

// faultInjector draws faults from its own seeded source, so a seed gives
// the same sequence of faults for the same sequence of requests.
type faultInjector struct {
	spec FaultSpec
	plan FaultPlan
	mu   sync.Mutex
	rnd  *rand.Rand
}

func newFaultInjector(spec FaultSpec, plan FaultPlan) *faultInjector {
	seed := spec.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	return &faultInjector{spec: spec, plan: plan, rnd: rand.New(rand.NewPCG(seed, seed^0x5eed))}
}

// planned maps a FaultPlan's choice to a fault kind and its shape.
var planned = map[Fault]struct {
	kind    faultKind
	variant int
}{
	FaultBadGateway: {faultServerError, 0}, FaultUnavailable: {faultServerError, 1},
	FaultSecondaryRetry: {faultSecondary, 0}, FaultSecondaryNoWait: {faultSecondary, 1},
	FaultSecondary429: {faultSecondary, 2}, FaultDrop: {faultDrop, 0},
}

// draw picks this request's fault and a variant number for its shape.
func (f *faultInjector) draw(r *http.Request) (faultKind, int) {
	if f.plan != nil {
		f.mu.Lock()
		choice := f.plan(r)
		f.mu.Unlock()
		if p, ok := planned[choice]; ok {
			return p.kind, p.variant
		}
	}
	if f.spec.ServerError == 0 && f.spec.SecondaryLimit == 0 && f.spec.Drop == 0 {
		return faultNone, 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	x := f.rnd.Float64()
	variant := f.rnd.IntN(3)
	switch {
	case x < f.spec.ServerError:
		return faultServerError, variant
	case x < f.spec.ServerError+f.spec.SecondaryLimit:
		return faultSecondary, variant
	case x < f.spec.ServerError+f.spec.SecondaryLimit+f.spec.Drop:
		return faultDrop, variant
	}
	return faultNone, 0
}

// writeServerError imitates GitHub's two common 5xx shapes.
func writeServerError(w http.ResponseWriter, variant int) {
	if variant%2 == 0 {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><body><h1>502 Bad Gateway</h1>\nThe server returned an invalid or incomplete response.\n</body></html>\n"))
		return
	}
	writeError(w, http.StatusServiceUnavailable, "No server is currently available to service your request. Sorry about that. Please try resubmitting your request and contact us if the problem persists.")
}

// writeSecondaryLimit imitates the three shapes GitHub uses: 403 with
// retry-after, 403 without it, and 429 with it.
func writeSecondaryLimit(w http.ResponseWriter, variant int) {
	const msg = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID."
	const doc = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
	switch variant {
	case 0:
		w.Header().Set("Retry-After", "60")
		writeErrorDoc(w, http.StatusForbidden, msg, doc)
	case 1:
		writeErrorDoc(w, http.StatusForbidden, msg, doc)
	default:
		w.Header().Set("Retry-After", "30")
		writeErrorDoc(w, http.StatusTooManyRequests, msg, doc)
	}
}
