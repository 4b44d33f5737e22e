//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// submitter is the one user besides the admins that the suite's clusters admit to
// their default queue (newClusterOn).
const submitter = "alice"

// aclSpecs probe YARN's ACLs on the suite's cluster through the ResourceManager's
// REST API, naming users as a client under simple authentication does. The
// benchmark stages that follow submit as hadoop, an admin.
func aclSpecs() {
	It("admits to the default queue only its declared submitters and the admins", func() {
		_, status, body := submitProbe("mallory")
		Expect(status).To(Equal(http.StatusBadRequest), "%s", body)
		Expect(body).To(ContainSubstring("User mallory does not have permission to submit"))

		id, status, body := submitProbe(submitter)
		Expect(status).To(Equal(http.StatusAccepted), "%s", body)

		By("showing an application's times to its owner and the admins only")
		started := func(user string) int64 {
			data, err := resourceManagerGet(clusterName, "/ws/v1/cluster/apps/"+id+"?user.name="+user)
			Expect(err).NotTo(HaveOccurred())
			var app struct {
				App struct {
					User        string `json:"user"`
					StartedTime int64  `json:"startedTime"`
				} `json:"app"`
			}
			Expect(json.Unmarshal(data, &app)).To(Succeed())
			Expect(app.App.User).To(Equal(submitter))
			return app.App.StartedTime
		}
		Expect(started(submitter)).To(BeNumerically(">", 0))
		Expect(started("hadoop")).To(BeNumerically(">", 0), "the operator reads as hadoop")
		Expect(started("mallory")).To(BeZero(), "YARN hides another user's application from mallory")
	})
}

// submitProbe submits, as user, an application whose ApplicationMaster only sleeps a
// second to the default queue, and returns its id and the submission's answer.
func submitProbe(user string) (string, int, string) {
	GinkgoHelper()
	return submitProbeTo(user, "default")
}

// submitProbeTo is submitProbe to another queue.
func submitProbeTo(user, queue string) (string, int, string) {
	GinkgoHelper()
	rm, err := daemonURL(clusterName, hadoop.ResourceManager, hadoop.PortRMWeb)
	Expect(err).NotTo(HaveOccurred())
	base := rm + "/ws/v1/cluster/apps"
	_, body, err := request(http.MethodPost, base+"/new-application?user.name="+user, "", "")
	Expect(err).NotTo(HaveOccurred())
	var app struct {
		ID string `json:"application-id"`
	}
	Expect(json.Unmarshal(body, &app)).To(Succeed(), string(body))
	Expect(app.ID).NotTo(BeEmpty())

	submission := fmt.Sprintf(`{"application-id": %q, "application-name": "probe", "queue": %q,
		"am-container-spec": {"commands": {"command": "sleep 1"}}, "resource": {"memory": 512, "vCores": 1},
		"application-type": "YARN", "max-app-attempts": 1}`, app.ID, queue)
	status, body, err := request(http.MethodPost, base+"?user.name="+user, "", submission)
	Expect(err).NotTo(HaveOccurred())
	return app.ID, status, string(body)
}
