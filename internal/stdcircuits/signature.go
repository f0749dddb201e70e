package stdcircuits

import (
	"crypto/sha256"
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
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

// eddsaCircuit verifies len(Sig) EdDSA signatures on Jubjub (the twisted
// Edwards curve over BLS12-381's scalar field), hashed with MiMC.
type eddsaCircuit struct {
	Pub []zkeddsa.PublicKey `gnark:",public"`
	Sig []zkeddsa.Signature `gnark:",public"`
	Msg []frontend.Variable `gnark:",public"`
}

func (c *eddsaCircuit) Define(api frontend.API) error {
	curve, err := twistededwards.NewEdCurve(api, tedwards.BLS12_381)
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
// (std/signature/eddsa).
func EdDSA(n int) (*Circuit, error) {
	if n < 1 {
		return nil, fmt.Errorf("stdcircuits: eddsa: %d signatures, need at least 1", n)
	}
	return &Circuit{
		Name: sized("eddsa", "signatures", n),
		Shape: &eddsaCircuit{
			Pub: make([]zkeddsa.PublicKey, n),
			Sig: make([]zkeddsa.Signature, n),
			Msg: make([]frontend.Variable, n),
		},
		Assign: func(rng *rand.Rand) (frontend.Circuit, error) {
			a := &eddsaCircuit{
				Pub: make([]zkeddsa.PublicKey, n),
				Sig: make([]zkeddsa.Signature, n),
				Msg: make([]frontend.Variable, n),
			}
			for i := range n {
				key, err := eddsa.New(tedwards.BLS12_381, randReader{rng})
				if err != nil {
					return nil, fmt.Errorf("stdcircuits: eddsa key: %w", err)
				}
				var m fr.Element
				m.SetBytes(randBytes(rng, fr.Bytes)) // reduced mod r
				msg := m.Bytes()
				sig, err := key.Sign(msg[:], hash.MIMC_BLS12_381.New())
				if err != nil {
					return nil, fmt.Errorf("stdcircuits: eddsa signing: %w", err)
				}
				a.Msg[i] = m.String()
				a.Pub[i].Assign(tedwards.BLS12_381, key.Public().Bytes())
				a.Sig[i].Assign(tedwards.BLS12_381, sig)
			}
			return a, nil
		},
	}, nil
}
