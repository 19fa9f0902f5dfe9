/**
 * Descriptors for the self reviews kubectl posts as protobuf: authentication/v1 SelfSubjectReview
 * (`kubectl auth whoami`) and TokenRequest (`kubectl create token`), and authorization/v1 SelfSubjectAccessReview (`kubectl auth can-i`) and
 * SelfSubjectRulesReview (`kubectl auth can-i --list`). Numbers are those of the matching
 * k8s.io/api generated.proto files. UserInfo `extra` (a map of ExtraValue lists) is not described:
 * clients leave the status of a request empty, and a body that carries it gets the decoder's 415
 * rather than losing it. The attribute and selector messages are Go pointers, so an empty one
 * that is sent is kept.
 */
import { bool, int64, KEEP, list, message, obj, str, time } from './schema.ts'
import { LabelSelectorRequirement, metadata } from './types-meta.ts'

const authn = (name: string) => `k8s.io.api.authentication.v1.${name}`
const authz = (name: string) => `k8s.io.api.authorization.v1.${name}`

const UserInfo = message(authn('UserInfo'), [
  str(1, 'username'),
  str(2, 'uid'),
  list(3, 'groups', 'string'),
])

/** authentication/v1 TokenRequest, which `kubectl create token` posts (a simulated edge issues it). */
export const TokenRequest = message(authn('TokenRequest'), [
  metadata(),
  obj(
    2,
    'spec',
    message(authn('TokenRequestSpec'), [
      list(1, 'audiences', 'string'),
      int64(4, 'expirationSeconds'),
      obj(
        3,
        'boundObjectRef',
        message(authn('BoundObjectReference'), [
          str(1, 'kind'),
          str(2, 'apiVersion'),
          str(3, 'name'),
          str(4, 'uid'),
        ])
      ),
    ])
  ),
  obj(
    3,
    'status',
    message(authn('TokenRequestStatus'), [str(1, 'token'), time(2, 'expirationTimestamp')])
  ),
])

export const SelfSubjectReview = message(authn('SelfSubjectReview'), [
  metadata(),
  obj(2, 'status', message(authn('SelfSubjectReviewStatus'), [obj(1, 'userInfo', UserInfo)])),
])

const FieldSelectorRequirement = message(
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement',
  [str(1, 'key'), str(2, 'operator'), list(3, 'values', 'string')]
)

const ResourceAttributes = message(authz('ResourceAttributes'), [
  str(1, 'namespace'),
  str(2, 'verb'),
  str(3, 'group'),
  str(4, 'version'),
  str(5, 'resource'),
  str(6, 'subresource'),
  str(7, 'name'),
  obj(
    8,
    'fieldSelector',
    message(authz('FieldSelectorAttributes'), [
      str(1, 'rawSelector'),
      list(2, 'requirements', FieldSelectorRequirement),
    ]),
    KEEP
  ),
  obj(
    9,
    'labelSelector',
    message(authz('LabelSelectorAttributes'), [
      str(1, 'rawSelector'),
      list(2, 'requirements', LabelSelectorRequirement),
    ]),
    KEEP
  ),
])

const NonResourceAttributes = message(authz('NonResourceAttributes'), [
  str(1, 'path'),
  str(2, 'verb'),
])

const SubjectAccessReviewStatus = message(authz('SubjectAccessReviewStatus'), [
  bool(1, 'allowed'),
  bool(4, 'denied'),
  str(2, 'reason'),
  str(3, 'evaluationError'),
])

export const SelfSubjectAccessReview = message(authz('SelfSubjectAccessReview'), [
  metadata(),
  obj(
    2,
    'spec',
    message(authz('SelfSubjectAccessReviewSpec'), [
      obj(1, 'resourceAttributes', ResourceAttributes, KEEP),
      obj(2, 'nonResourceAttributes', NonResourceAttributes, KEEP),
    ])
  ),
  obj(3, 'status', SubjectAccessReviewStatus),
])

const ResourceRule = message(authz('ResourceRule'), [
  list(1, 'verbs', 'string'),
  list(2, 'apiGroups', 'string'),
  list(3, 'resources', 'string'),
  list(4, 'resourceNames', 'string'),
])

const NonResourceRule = message(authz('NonResourceRule'), [
  list(1, 'verbs', 'string'),
  list(2, 'nonResourceURLs', 'string'),
])

export const SelfSubjectRulesReview = message(authz('SelfSubjectRulesReview'), [
  metadata(),
  obj(2, 'spec', message(authz('SelfSubjectRulesReviewSpec'), [str(1, 'namespace')])),
  obj(
    3,
    'status',
    message(authz('SubjectRulesReviewStatus'), [
      list(1, 'resourceRules', ResourceRule),
      list(2, 'nonResourceRules', NonResourceRule),
      bool(3, 'incomplete'),
      str(4, 'evaluationError'),
    ])
  ),
])
