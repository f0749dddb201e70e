package stdcircuits

import (
	"crypto/sha256"
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/secp256k1/ecdsa"
	tedwards "github.com/consensys/gnark-crypto/ecc/twistededwards"
	"github.com/consensys/gnark-crypto/hash"
	"github.com/consensys/gnark-crypto/signature/eddsa"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/algebra/emulated/sw_emulated"
	"github.com/consensys/gnark/std/algebra/native/twistededwards"
	"github.com/consensys/gnark/std/hash/mimc"
	"github.com/consensys/gnark/std/math/emulated"
	zkecdsa "github.com/consensys/gnark/std/signature/ecdsa"
	zkeddsa "github.com/consensys/gnark/std/signature/eddsa"
)

type (
	secpFp = emulated.Secp256k1Fp
	secpFr = emulated.Secp256k1Fr
)

// ecdsaCircuit verifies len(Sig) ECDSA signatures over secp256k1, each of
// a SHA-256 message hash under its own public key, in emulated arithmetic.
type ecdsaCircuit struct {
	Sig []zkecdsa.Signature[secpFr]
	Msg []emulated.Element[secpFr]
	Pub []zkecdsa.PublicKey[secpFp, secpFr]
}

func (c *ecdsaCircuit) Define(api frontend.API) error {
	params := sw_emulated.GetCurveParams[secpFp]()
	for i := range c.Sig {
		c.Pub[i].Verify(api, params, &c.Msg[i], &c.Sig[i])
	}
	return nil
}

// ECDSA is the verification of n ECDSA signatures over secp256k1
// (std/signature/ecdsa, emulated field arithmetic).
func ECDSA(n int) (*Circuit, error) {
	if n < 1 {
		return nil, fmt.Errorf("stdcircuits: ecdsa: %d signatures, need at least 1", n)
	}
	return &Circuit{
		Name: sized("ecdsa", "signatures", n),
		Shape: &ecdsaCircuit{
			Sig: make([]zkecdsa.Signature[secpFr], n),
			Msg: make([]emulated.Element[secpFr], n),
			Pub: make([]zkecdsa.PublicKey[secpFp, secpFr], n),
		},
		Assign: func(rng *rand.Rand) (frontend.Circuit, error) {
			a := &ecdsaCircuit{
				Sig: make([]zkecdsa.Signature[secpFr], n),
				Msg: make([]emulated.Element[secpFr], n),
				Pub: make([]zkecdsa.PublicKey[secpFp, secpFr], n),
			}
			for i := range n {
				key, err := ecdsa.GenerateKey(randReader{rng})
				if err != nil {
					return nil, fmt.Errorf("stdcircuits: ecdsa key: %w", err)
				}
				msg := randBytes(rng, 64)
				sigBytes, err := key.Sign(msg, sha256.New())
				if err != nil {
					return nil, fmt.Errorf("stdcircuits: ecdsa signing: %w", err)
				}
				var sig ecdsa.Signature
				if _, err := sig.SetBytes(sigBytes); err != nil {
					return nil, fmt.Errorf("stdcircuits: ecdsa signature: %w", err)
				}
				digest := sha256.Sum256(msg)
				r := new(big.Int).SetBytes(sig.R[:])
				s := new(big.Int).SetBytes(sig.S[:])
				a.Sig[i] = zkecdsa.Signature[secpFr]{
					R: emulated.ValueOf[secpFr](r),
					S: emulated.ValueOf[secpFr](s),
				}
				a.Msg[i] = emulated.ValueOf[secpFr](ecdsa.HashToInt(digest[:]))
				a.Pub[i] = zkecdsa.PublicKey[secpFp, secpFr]{
					X: emulated.ValueOf[secpFp](key.PublicKey.A.X),
					Y: emulated.ValueOf[secpFp](key.PublicKey.A.Y),
				}
			}
			return a, nil
		},
	}, nil
}

// eddsaCircuit verifies len(Sig) EdDSA signatures on the twisted Edwards
// curve over the scalar field of Curve (Jubjub on BLS12-381, Baby Jubjub on
// BN254), hashed with MiMC.
type eddsaCircuit struct {
	Curve tedwards.ID         `gnark:"-"`
	Pub   []zkeddsa.PublicKey `gnark:",public"`
	Sig   []zkeddsa.Signature `gnark:",public"`
	Msg   []frontend.Variable `gnark:",public"`
}

func (c *eddsaCircuit) Define(api frontend.API) error {
	curve, err := twistededwards.NewEdCurve(api, c.Curve)
	if err != nil {
		return err
	}
	for i := range c.Sig {
		h, err := mimc.NewMiMC(api)
		if err != nil {
			return err
		}
		if err := zkeddsa.Verify(curve, c.Sig[i], c.Msg[i], c.Pub[i], &h); err != nil {
			return err
		}
	}
	return nil
}

// EdDSA is the verification of n EdDSA signatures on Jubjub with MiMC
// (std/signature/eddsa), for BLS12-381's scalar field.
func EdDSA(n int) (*Circuit, error) { return EdDSAOn(ecc.BLS12_381, n) }

// edwardsOf gives, for the curves whose scalar field carries a twisted
// Edwards curve and a MiMC in gnark, those two.
var edwardsOf = map[ecc.ID]struct {
	curve tedwards.ID
	mimc  hash.Hash
}{
	ecc.BN254:     {tedwards.BN254, hash.MIMC_BN254},
	ecc.BLS12_381: {tedwards.BLS12_381, hash.MIMC_BLS12_381},
	ecc.BLS12_377: {tedwards.BLS12_377, hash.MIMC_BLS12_377},
	ecc.BW6_761:   {tedwards.BW6_761, hash.MIMC_BW6_761},
}

// EdDSAOn is EdDSA for the scalar field of curve id: the signatures are on
// the twisted Edwards curve over that field (Baby Jubjub for BN254).
func EdDSAOn(id ecc.ID, n int) (*Circuit, error) {
	if n < 1 {
		return nil, fmt.Errorf("stdcircuits: eddsa: %d signatures, need at least 1", n)
	}
	ed, ok := edwardsOf[id]
	if !ok {
		return nil, fmt.Errorf("stdcircuits: eddsa: no twisted Edwards curve over %s's scalar field", id)
	}
	r := id.ScalarField()
	return &Circuit{
		Name: sized("eddsa", "signatures", n),
		Shape: &eddsaCircuit{
			Curve: ed.curve,
			Pub:   make([]zkeddsa.PublicKey, n),
			Sig:   make([]zkeddsa.Signature, n),
			Msg:   make([]frontend.Variable, n),
		},
		Assign: func(rng *rand.Rand) (frontend.Circuit, error) {
			a := &eddsaCircuit{
				Curve: ed.curve,
				Pub:   make([]zkeddsa.PublicKey, n),
				Sig:   make([]zkeddsa.Signature, n),
				Msg:   make([]frontend.Variable, n),
			}
			for i := range n {
				key, err := eddsa.New(ed.curve, randReader{rng})
				if err != nil {
					return nil, fmt.Errorf("stdcircuits: eddsa key: %w", err)
				}
				size := (r.BitLen() + 7) / 8
				m := new(big.Int).SetBytes(randBytes(rng, size))
				m.Mod(m, r)
				msg := m.FillBytes(make([]byte, size))
				sig, err := key.Sign(msg, ed.mimc.New())
				if err != nil {
					return nil, fmt.Errorf("stdcircuits: eddsa signing: %w", err)
				}
				a.Msg[i] = m.String()
				a.Pub[i].Assign(ed.curve, key.Public().Bytes())
				a.Sig[i].Assign(ed.curve, sig)
			}
			return a, nil
		},
	}, nil
}
