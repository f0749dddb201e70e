package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestListLimit: List asks the server for the options' limit: none for
// the server's default, N, or 0 (every job) with All, which wins over a
// limit.
func TestListLimit(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		v := "absent"
		if q.Has("limit") {
			v = q.Get("limit")
		}
		got = append(got, v)
		_ = json.NewEncoder(w).Encode(JobList{Jobs: []Job{}, Counts: map[State]int{}})
	}))
	defer srv.Close()
	c := New(srv.URL)
	cases := []struct {
		o    ListOptions
		want string
	}{
		{ListOptions{Batch: "b"}, "absent"},
		{ListOptions{Limit: 7}, "7"},
		{ListOptions{All: true}, "0"},
		{ListOptions{All: true, Limit: 7}, "0"},
	}
	for i, c2 := range cases {
		if _, err := c.List(context.Background(), c2.o); err != nil {
			t.Fatalf("List(%+v): %v", c2.o, err)
		}
		if got[i] != c2.want {
			t.Errorf("List(%+v) sent limit %s, want %s", c2.o, got[i], c2.want)
		}
	}
}
