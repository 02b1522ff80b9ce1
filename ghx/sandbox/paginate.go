package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// pageOf reads per_page (default 30, at most 100) and page (default 1),
// returns the slice bounds for total items, and sets the Link header the
// way GitHub orders it: prev, next, last, first; none for a single page.
func pageOf(w http.ResponseWriter, r *http.Request, total int) (start, end int) {
	q := r.URL.Query()
	per := 30
	if v, err := strconv.Atoi(q.Get("per_page")); err == nil && v > 0 {
		per = min(v, 100)
	}
	page := 1
	if v, err := strconv.Atoi(q.Get("page")); err == nil && v > 0 {
		page = v
	}
	last := max(1, (total+per-1)/per)
	start = min((page-1)*per, total)
	end = min(start+per, total)
	if last == 1 && page == 1 {
		return start, end
	}
	link := func(n int) string {
		q2 := url.Values{}
		for k, v := range q {
			q2[k] = v
		}
		q2.Set("per_page", strconv.Itoa(per))
		q2.Set("page", strconv.Itoa(n))
		return fmt.Sprintf("<%s%s?%s>", baseURL(r), r.URL.EscapedPath(), q2.Encode())
	}
	var parts []string
	if page > 1 {
		parts = append(parts, link(min(page-1, last))+`; rel="prev"`)
	}
	if page < last {
		parts = append(parts, link(page+1)+`; rel="next"`, link(last)+`; rel="last"`)
	}
	if page > 1 {
		parts = append(parts, link(1)+`; rel="first"`)
	}
	w.Header().Set("Link", strings.Join(parts, ", "))
	return start, end
}

// baseURL is the server's own origin as the client reached it: https when
// it is served over TLS (as the gh conformance test serves it), so the
// links a client follows (Link's next page) stay on that origin.
func baseURL(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}
